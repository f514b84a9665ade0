package lore

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

func kw(words ...string) []schema.Keyword {
	out := make([]schema.Keyword, len(words))
	for i, w := range words {
		out[i] = schema.Keyword{Text: w}
	}
	return out
}

// TestMacrosOnlyInTheirPlaces: macros expand in entry content, persona,
// format, summary, memory and pending text, never in chat messages.
func TestMacrosOnlyInTheirPlaces(t *testing.T) {
	e := ent("e", schema.SectionSystemPresets, 0, "E {{user}}/{{char}} {{getvar::gold}}")
	book := &schema.Lorebook{Manifest: schema.Manifest{Name: "B", Character: "Sera", Format: "F {{user}}",
		Persona:   &schema.Persona{Name: "Ari", Appearance: "A {{char}}", Backstory: "B {{user}}"},
		Variables: []schema.Variable{{ID: "gold", Default: 3.0}}}, Entries: []*schema.Entry{e}}
	tr := &schema.Transcript{Summary: "S {{user}}", Memory: []schema.Item{{Text: "M {{char}}"}},
		Pending:  []schema.Item{{Text: "P {{user}}"}},
		Messages: []schema.Message{{Role: "user", Content: "chat {{user}} {{char}}"}}}
	res, err := Render(input(book, tr))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Messages {
		got = append(got, m.Content)
	}
	want := []string{
		"E Ari/Sera 3",
		"[Persona: Ari]\nAppearance: A Sera\nBackstory: B Ari",
		"F Ari",
		render.MarkerStartChat,
		"[Summary]\nS Ari",
		"[Memory]\n- M Sera",
		"chat {{user}} {{char}}",
		"[Pending effects]\n- P Ari",
		"[State]\ngold: 3",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestRenderTrace(t *testing.T) {
	card := ent("card", schema.SectionChatHistory, 0, "The tavern card.")
	card.Keywords = kw("tavern")
	deep := ent("deep", schema.SectionChatHistory, 0, "Deep card.")
	deep.Keywords = kw("tavern")
	deep.Depth = depth(1)
	off := ent("off", schema.SectionChatHistory, 0, "never")
	off.Keywords = kw("dragon")
	book := &schema.Lorebook{Manifest: schema.Manifest{Name: "B", Presets: kw("task")},
		Entries: []*schema.Entry{ent("sys", schema.SectionSystemPresets, 5, "System."), card, deep, off,
			ent("ex", schema.SectionExamples, 0, "{{user}}: a\n{{char}}: b")}}
	tr := &schema.Transcript{Messages: []schema.Message{{Role: "user", Content: "to the tavern"}, {Role: "assistant", Content: "ok"}}}
	res, err := Render(input(book, tr))
	if err != nil {
		t.Fatal(err)
	}
	var steps []int
	for _, m := range res.Messages {
		steps = append(steps, m.Step)
	}
	// task, sys, [Example Chat], a, b | card, start, deep, message:0, message:1
	if d := cmp.Diff([]int{1, 1, 4, 4, 4, 6, 7, 10, 10, 10}, steps); d != "" {
		t.Fatalf("steps (-want +got):\n%s", d)
	}
	if res.Breakpoint != 4 {
		t.Errorf("Breakpoint = %d, want 4 (the last example turn)", res.Breakpoint)
	}
	var got []string
	for _, a := range res.Activated {
		s := a.ID + "@" + a.Trigger.In
		if a.Depth != nil {
			s += "+depth"
		}
		got = append(got, s)
	}
	want := []string{"sys@always", "ex@always", "card@message:0", "deep@message:0+depth"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("activated (-want +got):\n%s", d)
	}
	if x := res.Explanations()["off"]; x == nil || x.Active || len(x.Reasons) == 0 {
		t.Errorf("explain off: %+v", x)
	}
	if len(res.Explanations()) != len(book.Entries) {
		t.Errorf("%d explanations for %d entries", len(res.Explanations()), len(book.Entries))
	}
}

func TestRenderNoBreakpointWithoutStableHead(t *testing.T) {
	res, err := Render(input(&schema.Lorebook{}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if res.Breakpoint != -1 || len(res.Messages) != 1 {
		t.Errorf("breakpoint %d, %d messages", res.Breakpoint, len(res.Messages))
	}
}

// TestRenderBudgetExplained: a card the cards share cannot hold is left out,
// its explanation says so, and it is not in `activated`; memory items the
// budget drops take the header with them.
func TestRenderBudgetExplained(t *testing.T) {
	big := ent("big", schema.SectionChatHistory, 0, strings.Repeat("word ", 400))
	big.Keywords = kw("tavern")
	small := ent("small", schema.SectionChatHistory, 1, "A small card.")
	small.Keywords = kw("tavern")
	book := &schema.Lorebook{Entries: []*schema.Entry{big, small}}
	tr := &schema.Transcript{Messages: []schema.Message{{Role: "user", Content: "the tavern"}},
		Memory: []schema.Item{{Text: strings.Repeat("memory ", 1000)}}}
	in := input(book, tr)
	in.Settings.ContextTokens, in.Settings.ResponseReserve = 1200, 0
	res, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range res.Activated {
		if a.ID == "big" {
			t.Error("big is in activated")
		}
	}
	x := res.Explanations()["big"]
	if x == nil || !strings.Contains(strings.Join(x.Texts(), "\n"), "left out by the budget (cards share: ") {
		t.Errorf("explain big: %+v", x)
	}
	for _, m := range res.Messages {
		if m.Step == render.StepMemory {
			t.Errorf("memory message without items: %q", m.Content)
		}
	}
}

func TestRenderCutExplained(t *testing.T) {
	huge := ent("huge", schema.SectionSystemPresets, 0, strings.Repeat("rule ", 2000))
	book := &schema.Lorebook{Entries: []*schema.Entry{huge}}
	in := input(book, nil)
	in.Settings.ContextTokens, in.Settings.ResponseReserve = 1000, 0
	res, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) == 0 || !res.Messages[0].Cut {
		t.Fatalf("first message not cut: %+v", res.Messages)
	}
	if x := res.Explanations()["huge"]; !strings.Contains(strings.Join(x.Texts(), "\n"), "cut at its end") {
		t.Errorf("explain: %+v", x)
	}
}

func TestRenderTransformWarning(t *testing.T) {
	book := &schema.Lorebook{Manifest: schema.Manifest{Transforms: []schema.Transform{{Pattern: "(", Replace: ""},
		{Pattern: "secret", Replace: "***"}}}}
	tr := &schema.Transcript{Messages: []schema.Message{{Role: "user", Content: "a secret"}, {Role: "user", Content: "now"}}}
	res, err := Render(input(book, tr))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 {
		t.Errorf("warnings %v", res.Warnings)
	}
	for _, m := range res.Messages {
		if strings.Contains(m.Content, "secret") {
			t.Error("the valid transform did not apply")
		}
	}
	if tr.Messages[0].Content != "a secret" {
		t.Error("the transcript was changed")
	}
}

func TestRenderNilInput(t *testing.T) {
	if _, err := Render(nil); err == nil {
		t.Error("nil input: no error")
	}
	if _, err := Render(&render.Input{}); err == nil {
		t.Error("no book: no error")
	}
}

// FuzzRender feeds arbitrary entry content, chat text and depths through the
// whole pipeline and every output: nothing may panic, and the JSON outputs
// must stay valid.
func FuzzRender(f *testing.F) {
	f.Add("<START>\n{{user}}: hi {{random::a::b}}\n{{char}}: yo", "the tavern {{user}}", 0, "[]")
	f.Add("", "", -5, "x")
	f.Add("{{getvar::x}} {{", "\x00\xff", 1000, "{{char}}:")
	f.Fuzz(func(t *testing.T, content, chat string, d int, extra string) {
		ex := ent("ex", schema.SectionExamples, 0, content)
		card := ent("card", schema.SectionChatHistory, 0, content+extra)
		card.Keywords = kw("tavern", extra)
		card.Depth = &d
		greet := ent("greet", schema.SectionPostHistory, 0, extra)
		greet.Role = render.RoleGreeting
		book := &schema.Lorebook{Manifest: schema.Manifest{Format: extra, Presets: kw("task", extra)},
			Entries: []*schema.Entry{ex, card, greet}}
		tr := &schema.Transcript{Messages: []schema.Message{{Role: "user", Content: chat}, {Role: "assistant", Content: extra}, {Role: "user", Content: chat}},
			Memory: []schema.Item{{Text: extra}}, Pending: []schema.Item{{Text: content}}}
		res, err := Render(input(book, tr))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range output.OutputFormats() {
			out, _ := output.NewOutput(name, output.OutputOptions{Report: true})
			var b strings.Builder
			if err := out.Write(&b, res); err != nil {
				t.Fatal(err)
			}
			if name != "text" && name != "html" && !json.Valid([]byte(b.String())) {
				t.Fatalf("%s output is not valid JSON", name)
			}
		}
	})
}

// TestRecursionFromAnotherSection: a card activated by the content of a
// keyword-activated entry of another section is in the prompt when that
// parent is (issue: the budget dropped it as "activated only through cards
// that were left out"), at recursion level 1.
func TestRecursionFromAnotherSection(t *testing.T) {
	gate := ent("gate", schema.SectionSystemPresets, 0, "The dragon guards the ledger.")
	gate.AlwaysSend, gate.Keywords = false, kw("dragon")
	ledger := ent("ledger", schema.SectionChatHistory, 0, "The ledger lists every debt.")
	ledger.Keywords = kw("ledger")
	book := &schema.Lorebook{Entries: []*schema.Entry{gate, ledger}}
	tr := &schema.Transcript{Messages: []schema.Message{{Role: "user", Content: "I see a dragon."}}}
	res, err := Render(input(book, tr))
	if err != nil {
		t.Fatal(err)
	}
	a := res.InPrompt("ledger")
	if a == nil {
		t.Fatalf("ledger is not in the prompt: %q", res.Explanations()["ledger"].Texts())
	}
	if a.Recursion != 1 || a.Trigger.In != "entry:gate" {
		t.Errorf("ledger: recursion %d, trigger %+v; want level 1 from entry:gate", a.Recursion, a.Trigger)
	}
	if x := res.Explanations()["ledger"]; !x.Active || x.Level != 1 {
		t.Errorf("explanation: active %v, level %d; want active at level 1", x.Active, x.Level)
	}

	// When the parent is left out (Required over a tiny cap), the card goes
	// with it, and --explain still says the level it activated at.
	in := input(book, tr)
	in.Settings.ContextTokens, in.Settings.ResponseReserve = 12, 0
	res, err = Render(in)
	if err != nil {
		t.Fatal(err)
	}
	if res.InPrompt("gate") != nil || res.InPrompt("ledger") != nil {
		t.Fatalf("gate and ledger should be left out with a 12-token context: %+v", res.Activated)
	}
	if x := res.Explanations()["ledger"]; !x.Active || x.Level != 1 {
		t.Errorf("left-out ledger: active %v, level %d; want active at level 1", x.Active, x.Level)
	}
	if got := strings.Join(res.Explanations()["ledger"].Texts(), "\n"); !strings.Contains(got, "activated only through entries that were left out") {
		t.Errorf("reasons do not say the parent was left out:\n%s", got)
	}
}

// TestEngineReusesKeywordIndex: renders of one lorebook through one Engine
// (lore test's turns and seeds) build its keyword automaton once and give what
// the package's Render gives.
func TestEngineReusesKeywordIndex(t *testing.T) {
	card := ent("card", schema.SectionChatHistory, 0, "The tavern card.")
	card.Keywords = kw("tavern")
	book := &schema.Lorebook{Entries: []*schema.Entry{card}}
	tr := &schema.Transcript{Messages: []schema.Message{{Role: "user", Content: "the tavern"}}}
	eng := New()
	want, err := Render(input(book, tr))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		got, err := eng.Render(input(book, tr))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want.Messages, got.Messages); d != "" {
			t.Fatalf("engine render differs (-want +got):\n%s", d)
		}
	}
	if len(eng.indexes) != 1 {
		t.Errorf("%d keyword indexes for one lorebook", len(eng.indexes))
	}
	first := eng.index(book)
	if eng.index(book) != first {
		t.Error("the index was rebuilt")
	}
}
