package lore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// ent builds an enabled entry with SPEC §1's defaults.
func ent(id, section string, pos int, content string) *schema.Entry {
	return &schema.Entry{ID: id, Name: id, Section: section, Position: pos, Content: content,
		Enabled: true, AlwaysSend: schema.DefaultAlwaysSend(section), Role: "character",
		APIRole: "system", ConditionLogic: "all", SecondaryKeywordLogic: schema.AndAny}
}

func depth(d int) *int { return &d }

// activeAll lets every enabled entry in, as if activation had chosen them all.
func activeAll(book *schema.Lorebook) *Activation {
	why := map[string]*render.Explanation{}
	act := &Activation{why: func() map[string]*render.Explanation { return why }}
	for i, e := range book.Entries {
		if !e.Enabled {
			continue
		}
		tr := render.Trigger{In: "always"}
		if !e.AlwaysSend {
			tr = render.Trigger{Keyword: "kw", In: "message:0"}
		}
		act.Active = append(act.Active, &render.Activated{Entry: e, Trigger: tr, LastMessage: -1, Hits: i})
		why[e.ID] = &render.Explanation{Active: true}
	}
	return act
}

func msgs(roles ...string) []schema.Message {
	out := make([]schema.Message, len(roles))
	for i, r := range roles {
		out[i] = schema.Message{Role: r, Content: fmt.Sprintf("m%d", i)}
	}
	return out
}

func input(book *schema.Lorebook, tr *schema.Transcript) *render.Input {
	c, _ := tokenize.Get(tokenize.Chars4)
	if tr == nil {
		tr = &schema.Transcript{}
	}
	return &render.Input{Book: book, Transcript: tr, Settings: schema.DefaultSettings(), Counter: c}
}

// row is what the tests compare of a piece.
type row struct {
	Step    int
	Role    string
	Section string
	Key     string
	Sources string
}

func rows(ps []render.Piece) []row {
	out := make([]row, len(ps))
	for i, p := range ps {
		out[i] = row{p.Step, p.Role, p.Section, p.Key, strings.Join(p.Sources, ",")}
	}
	return out
}

func TestAssembleEveryStep(t *testing.T) {
	sp := ent("rules", schema.SectionSystemPresets, 0, "Rules.")
	sp2 := ent("world", schema.SectionSystemPresets, 2, "World.")
	ex := ent("ex", schema.SectionExamples, 0, "<START>\n{{user}}: Hi\n{{char}}: Hello")
	trig := ent("card", schema.SectionChatHistory, 0, "Card.")
	inj := ent("inj", schema.SectionChatHistory, 0, "Injected.")
	inj.Depth = depth(0)
	post := ent("note", schema.SectionPostHistory, 5, "render.Note.")
	user := ent("asuser", schema.SectionPostHistory, 7, "As user.")
	user.APIRole = "user"
	book := &schema.Lorebook{
		Manifest: schema.Manifest{Name: "T", Format: "Format text.",
			Persona:   &schema.Persona{Name: "Ari", Appearance: "tall"},
			Presets:   []schema.Keyword{{Text: "cot-bypass"}, {Text: "task"}, {Text: "fiction-mode"}, {Text: "nope"}, {Text: "task"}},
			Variables: []schema.Variable{{ID: "phase", Type: "string", Default: "act1"}}},
		Entries: []*schema.Entry{post, user, inj, trig, ex, sp2, sp},
	}
	tr := &schema.Transcript{Messages: msgs("user", "assistant", "user"), Summary: "Before.",
		Memory: []schema.Item{{Text: "one"}, {Text: "  "}, {Text: "two"}}, Pending: []schema.Item{{Text: "rain"}}}
	got := rows(Assemble(input(book, tr), activeAll(book)))
	want := []row{
		{1, "system", "system-presets", "preset:fiction-mode", "preset:fiction-mode"},
		{1, "system", "system-presets", "rules", "rules"},
		{1, "system", "system-presets", "preset:task", "preset:task"},
		{1, "system", "system-presets", "world", "world"},
		{2, "system", "plot-essentials", "plot-essentials", "persona"},
		{3, "system", "plot-essentials", "plot-essentials", "format"},
		{4, "system", "", "", "ex"},
		{4, "user", "examples", "ex", "ex"},
		{4, "assistant", "examples", "ex", "ex"},
		{6, "system", "cards", "card", "card"},
		{7, "system", "", "", ""},
		{8, "system", "summary", "summary", "summary"},
		{9, "system", "", "", "memory"},
		{9, "system", "memory", "memory:0", "memory"},
		{9, "system", "memory", "memory:2", "memory"},
		{10, "user", "history", "message:0", "message:0"},
		{10, "assistant", "history", "message:1", "message:1"},
		{10, "system", "cards", "inj", "inj"},
		{10, "user", "last-action", "message:2", "message:2"},
		{11, "system", "front-memory", "front-memory", "pending"},
		{12, "system", "front-memory", "front-memory", "state"},
		{13, "user", "post-history", "preset:cot-bypass", "preset:cot-bypass"},
		{13, "system", "post-history", "note", "note"},
		{13, "user", "post-history", "asuser", "asuser"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("assembly (-want +got):\n%s", d)
	}
}

func TestAssembleBlocks(t *testing.T) {
	book := &schema.Lorebook{Manifest: schema.Manifest{Name: "T",
		Persona:   &schema.Persona{Name: "Ari", Appearance: "tall", Backstory: "from Vell"},
		Variables: []schema.Variable{{ID: "phase", Default: "act1"}, {ID: "gold", Default: 12.0}, {ID: "bag", Default: []any{"torch"}}}}}
	in := input(book, &schema.Transcript{Summary: "Before.", Memory: []schema.Item{{Text: "one"}},
		Pending: []schema.Item{{Text: "rain"}, {Text: "wind"}},
		Persona: &schema.Persona{Name: "Bo", Backstory: "a thief"}})
	in.Vars = map[string]any{"gold": 7.0, "zeta": true, "alpha": map[string]any{"b": 1.0, "a": "x"}}
	got := map[string]string{}
	for _, p := range Assemble(in, &Activation{}) {
		got[strings.Join(p.Sources, ",")+"/"+p.Key] += p.Content
	}
	want := map[string]string{
		"persona/plot-essentials": "[Persona: Bo]\nBackstory: a thief",
		"/":                       render.MarkerStartChat,
		"summary/summary":         "[Summary]\nBefore.",
		"memory/":                 "[Memory]",
		"memory/memory:0":         "- one",
		"pending/front-memory":    "[Pending effects]\n- rain\n- wind",
		"state/front-memory":      "[State]\nphase: act1\ngold: 7\nbag: torch\nalpha: {\"a\":\"x\",\"b\":1}\nzeta: true",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("blocks (-want +got):\n%s", d)
	}
}

func TestAssembleEmptyBook(t *testing.T) {
	got := rows(Assemble(input(&schema.Lorebook{}, nil), nil))
	want := []row{{7, "system", "", "", ""}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestDepthInjection(t *testing.T) {
	mk := func(id string, d, pos int) *schema.Entry {
		e := ent(id, schema.SectionChatHistory, pos, id)
		e.Depth = depth(d)
		return e
	}
	tests := []struct {
		name    string
		n       int // transcript messages
		entries []*schema.Entry
		want    string // keys of step 10 in order
	}{
		{"depth 0 is before the newest", 3, []*schema.Entry{mk("a", 0, 0)}, "message:0 message:1 a message:2"},
		{"depth 1", 3, []*schema.Entry{mk("a", 1, 0)}, "message:0 a message:1 message:2"},
		{"depth 2 of 3 is the top", 3, []*schema.Entry{mk("a", 2, 0)}, "a message:0 message:1 message:2"},
		{"depth = length is the top", 3, []*schema.Entry{mk("a", 3, 0)}, "a message:0 message:1 message:2"},
		{"depth beyond length is the top", 3, []*schema.Entry{mk("a", 99, 0)}, "a message:0 message:1 message:2"},
		{"ties by position then id", 2, []*schema.Entry{mk("z", 0, 1), mk("b", 0, 2), mk("y", 0, 1)}, "message:0 y z b message:1"},
		{"empty transcript", 0, []*schema.Entry{mk("a", 0, 0), mk("b", 5, 0)}, "a b"},
		{"one message, depth 0", 1, []*schema.Entry{mk("a", 0, 0)}, "a message:0"},
		{"negative depth acts as 0", 2, []*schema.Entry{mk("a", -3, 0)}, "message:0 a message:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			book := &schema.Lorebook{Entries: tt.entries}
			tr := &schema.Transcript{Messages: msgs(strings.Fields(strings.Repeat("user ", tt.n))...)}
			var keys []string
			for _, p := range Assemble(input(book, tr), activeAll(book)) {
				if p.Step == render.StepHistory {
					keys = append(keys, p.Key)
				}
			}
			if got := strings.Join(keys, " "); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestGreeting(t *testing.T) {
	greet := func(section string) *schema.Entry {
		g := ent("hello", section, 0, "Welcome.")
		g.Role = render.RoleGreeting
		return g
	}
	tests := []struct {
		name    string
		section string
		roles   []string
		want    string // step:role:key of every piece but the start marker
	}{
		{"opens an empty chat", schema.SectionPostHistory, nil, "10:assistant:hello"},
		{"opens a chat that starts with the user", schema.SectionPostHistory, []string{"user"},
			"10:assistant:hello 10:user:message:0"},
		{"left out when the chat opens with the assistant", schema.SectionPostHistory, []string{"assistant", "user"},
			"10:assistant:message:0 10:user:message:1"},
		{"from system-presets too", schema.SectionSystemPresets, []string{"user"},
			"10:assistant:hello 10:user:message:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			book := &schema.Lorebook{Entries: []*schema.Entry{greet(tt.section)}}
			tr := &schema.Transcript{Messages: msgs(tt.roles...)}
			var got []string
			for _, p := range Assemble(input(book, tr), activeAll(book)) {
				if p.Step != render.StepStartChat {
					got = append(got, fmt.Sprintf("%d:%s:%s", p.Step, p.Role, p.Key))
				}
			}
			if s := strings.Join(got, " "); s != tt.want {
				t.Errorf("got %q, want %q", s, tt.want)
			}
		})
	}
}

func TestGreetingCountsForDepth(t *testing.T) {
	g := ent("hello", schema.SectionPostHistory, 0, "Welcome.")
	g.Role = render.RoleGreeting
	c := ent("card", schema.SectionChatHistory, 0, "Card.")
	c.Depth = depth(1)
	book := &schema.Lorebook{Entries: []*schema.Entry{g, c}}
	tr := &schema.Transcript{Messages: msgs("user")}
	var keys []string
	for _, p := range Assemble(input(book, tr), activeAll(book)) {
		if p.Step == render.StepHistory {
			keys = append(keys, p.Key)
		}
	}
	if got := strings.Join(keys, " "); got != "card hello message:0" {
		t.Errorf("got %q", got)
	}
}

func TestAPIRoleAndSections(t *testing.T) {
	a := ent("a", schema.SectionSystemPresets, 0, "A.")
	a.APIRole = "assistant"
	b := ent("b", schema.SectionChatHistory, 0, "B.")
	b.APIRole = "user"
	c := ent("c", schema.SectionSystemPresets, 1, "C.")
	c.AlwaysSend = false // keyword-activated: still lands in its own section
	d := ent("d", schema.SectionPostHistory, 0, "D.")
	d.APIRole = "bogus"
	off := ent("off", schema.SectionSystemPresets, 0, "Off.")
	off.Enabled = false
	empty := ent("empty", schema.SectionSystemPresets, 0, " \n ")
	book := &schema.Lorebook{Entries: []*schema.Entry{a, b, c, d, off, empty}}
	act := activeAll(book)
	act.Active = append(act.Active, &render.Activated{Entry: off}) // activation never does this; assembly still refuses
	got := rows(Assemble(input(book, nil), act))
	want := []row{
		{1, "assistant", "system-presets", "a", "a"},
		{1, "system", "system-presets", "c", "c"},
		{6, "user", "cards", "b", "b"},
		{7, "system", "", "", ""},
		{13, "system", "post-history", "d", "d"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestCardsCarryActivation(t *testing.T) {
	b := ent("b", schema.SectionChatHistory, 0, "B.")
	s := ent("s", schema.SectionSystemPresets, 0, "S.")
	book := &schema.Lorebook{Entries: []*schema.Entry{b, s}}
	for _, p := range Assemble(input(book, nil), activeAll(book)) {
		switch p.Key {
		case "b":
			if p.Card == nil || p.Card.Entry != b {
				t.Errorf("card piece without its activation")
			}
		case "s":
			if p.Card != nil {
				t.Errorf("system-presets entry marked as a card")
			}
		}
		if p.Message != -1 {
			t.Errorf("%s: render.Message = %d, want -1", p.Key, p.Message)
		}
	}
}

func TestPresets(t *testing.T) {
	for _, name := range render.PresetNames() {
		p, ok := render.LookupPreset(name)
		if !ok || strings.TrimSpace(p.Content) == "" {
			t.Errorf("preset %s missing or empty", name)
		}
	}
	want := map[string][3]any{ // section, position, apiRole
		"fiction-mode": {schema.SectionSystemPresets, 0, "system"},
		"task":         {schema.SectionSystemPresets, 1, "system"},
		"instructions": {schema.SectionSystemPresets, 2, "system"},
		"style":        {schema.SectionSystemPresets, 3, "system"},
		"cot-bypass":   {schema.SectionPostHistory, 0, "user"},
	}
	for name, w := range want {
		p, _ := render.LookupPreset(name)
		if got := [3]any{p.Section, p.Position, p.APIRole}; got != w {
			t.Errorf("%s: %v, want %v", name, got, w)
		}
	}
	if _, ok := render.LookupPreset("nope"); ok {
		t.Error("unknown preset found")
	}
}

func TestAssembleExamples(t *testing.T) {
	ex := ent("ex", schema.SectionExamples, 0, "Style notes.\n<START>\n\n<START>\nNarration first.\n{{user}}: Hi {{char}}\nAri: again\n{{char}}: Hello {{user}}")
	ex.APIRole = "assistant" // turns take their speaker's role, not the entry's
	book := &schema.Lorebook{Manifest: schema.Manifest{Character: "Sera", Persona: &schema.Persona{Name: "Ari"}},
		Entries: []*schema.Entry{ex}}
	var got []string
	for _, p := range Assemble(input(book, nil), activeAll(book)) {
		if p.Step == render.StepExamples {
			got = append(got, p.Role+"|"+p.Section+"|"+p.Content)
		}
	}
	want := []string{
		"system||[Example Chat]",
		"system|examples|Style notes.",
		"system||[Example Chat]",
		"system|examples|Narration first.",
		"user|examples|Hi Sera",
		"user|examples|again",
		"assistant|examples|Hello Ari",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestAssembleRequiredKeepsWhatScanWindowWeighs: the assembly render weighs
// the scan window on is the full one without the chat's older messages and
// the cards placed among them, and gives the same window — with a greeting,
// depth cards, a last action large enough to move the window, and no chat.
func TestAssembleRequiredKeepsWhatScanWindowWeighs(t *testing.T) {
	sp := ent("rules", schema.SectionSystemPresets, 0, strings.Repeat("Rules of the road. ", 300))
	card := ent("card", schema.SectionChatHistory, 0, "Card.")
	inj := ent("inj", schema.SectionChatHistory, 0, "Injected.")
	inj.Depth = depth(1)
	deep := ent("deep", schema.SectionChatHistory, 1, "Deep.")
	deep.Depth = depth(50)
	hello := ent("hello", schema.SectionChatHistory, 0, "Welcome, traveller.")
	hello.Role = render.RoleGreeting
	post := ent("note", schema.SectionPostHistory, 5, "Note.")
	book := &schema.Lorebook{Manifest: schema.Manifest{Name: "T"}, Entries: []*schema.Entry{sp, card, inj, deep, hello, post}}
	long := strings.Repeat("I draw my sword and walk into the tavern. ", 400)
	chats := map[string]*schema.Transcript{
		"no chat":    {},
		"one":        {Messages: []schema.Message{{Role: "user", Content: "hi"}}},
		"long last":  {Messages: append(msgs("user", "assistant", "user", "assistant"), schema.Message{Role: "user", Content: long})},
		"opens":      {Messages: msgs("assistant", "user", "narrator"), Memory: []schema.Item{{Text: "one"}}, Pending: []schema.Item{{Text: "rain"}}},
		"100 turns":  {Messages: msgs(strings.Fields(strings.Repeat("user assistant ", 50))...)},
		"system end": {Messages: msgs("user", "system")},
	}
	dynamic := func(p render.Piece) bool {
		return p.Step == render.StepHistory && p.Section != render.SecLastAction
	}
	windows := map[string]int{}
	for name, tr := range chats {
		in := input(book, tr)
		in.Settings.ContextTokens = 32768
		act := activeAll(book)
		full, req := Assemble(in, act), assembleRequired(in, act)
		var want []render.Piece
		for _, p := range full {
			if !dynamic(p) {
				want = append(want, p)
			}
		}
		if d := cmp.Diff(want, req); d != "" {
			t.Errorf("%s: the Required assembly is not the full one without the chat (-want +got):\n%s", name, d)
		}
		w, g := render.ScanWindow(full, in.Settings, in.Counter), render.ScanWindow(req, in.Settings, in.Counter)
		windows[name] = w
		if w != g {
			t.Errorf("%s: scan window %d from the full assembly, %d from the Required one", name, w, g)
		}
	}
	if windows["long last"] >= windows["one"] {
		t.Errorf("a long last action leaves a scan window of %d, a short one %d: the case does not weigh the last action", windows["long last"], windows["one"])
	}
}
