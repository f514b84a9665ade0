package yumina

import (
	"math"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// The splice order found backwards with the Fenwick tree is the order that
// splicing each depth entry into the growing chat gives.
func TestHistorySplicing(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		n := r.Intn(6)
		var history []schema.Message
		var naive []string
		for k := 0; k < n; k++ {
			history = append(history, schema.Message{Role: "user", Content: "m" + strconv.Itoa(k)})
			naive = append(naive, "message:"+strconv.Itoa(k))
		}
		var es []*entry
		for k := r.Intn(6); k > 0; k-- {
			d := r.Intn(9) - 2
			e := &entry{Entry: &schema.Entry{ID: "e" + strconv.Itoa(len(es)), Section: schema.SectionChatHistory,
				Position: r.Intn(3)}, depth: &d}
			es = append(es, e)
		}
		sorted := byPosition(es, func(*entry) bool { return true })
		for _, e := range sorted {
			at := min(max(0, len(naive)-*e.depth), len(naive))
			naive = slices.Insert(naive, at, e.ID)
		}
		a := &assembler{in: &render.Input{Book: &schema.Lorebook{}}, macros: &macros{}}
		a.history(history, es)
		var got []string
		for _, m := range a.msgs {
			got = append(got, m.Sources[0])
		}
		if !slices.Equal(got, naive) {
			t.Fatalf("got %v, splicing gives %v", got, naive)
		}
	}
}

func TestMacros(t *testing.T) {
	m := &macros{char: "Mira", user: "Ana", vars: map[string]any{"gold": 12.0, "bag": []any{"rope", 2.5}, "npc": map[string]any{"a": 1.0}}}
	tests := []struct{ in, want string }{
		{"{{char}} and {{user}}", "Mira and Ana"},
		{"{{Char}} {{USER}}", "{{Char}} {{USER}}"},
		{"a {{// note}}b", "a b"},
		{"a  {{trim}}  b", "ab"},
		{"{{gold}} {{bag}} {{npc}} {{nope}}", "12 rope,2.5 [object Object] {{nope}}"},
		{"{{{user}}}", "{{{user}}}"},
		{"{{a}b}} {{user}}", "{{a}b}} Ana"},
		{"{{pick::x::y::z}}", "x"},              // macro 0 on turn 0
		{"{{user}} {{pick::x::y::z}}", "Ana y"}, // 2654435761 mod 2^32 = 2654435761; % 3 = 1
		{"{{turnCount}}", "0"},
		{"{{random::only}}", "only"},
		{"no macros", "no macros"},
	}
	for _, tt := range tests {
		if got := m.expand(tt.in); got != tt.want {
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	a, b := &macros{seed: 1}, &macros{seed: 1}
	text := "{{random::a::b::c::d::e::f::g::h}}"
	if a.expand(text) != b.expand(text) {
		t.Error("{{random}} is not the same for the same seed")
	}
}

func TestJSValues(t *testing.T) {
	numbers := []struct {
		f    float64
		want string
	}{
		{0, "0"}, {1, "1"}, {-1, "-1"}, {1.5, "1.5"}, {0.1, "0.1"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
		{1e-7, "1e-7"}, {0.000001, "0.000001"}, {123.456, "123.456"}, {-1.25e-10, "-1.25e-10"}, {2.5e300, "2.5e+300"},
		{math.Inf(1), "Infinity"}, {math.NaN(), "NaN"},
	}
	for _, tt := range numbers {
		if got := formatNumber(tt.f); got != tt.want {
			t.Errorf("formatNumber(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
	v := map[string]any{"b": []any{1.0, "x\"\n<>&", true, nil}, "a": map[string]any{}}
	if got, want := jsonStringify(v), `{"a":{},"b":[1,"x\"\n<>&",true,null]}`; got != want {
		t.Errorf("jsonStringify = %s, want %s", got, want)
	}
	if got := jsString([]any{1.0, nil, []any{"a", "b"}}); got != "1,,a,b" {
		t.Errorf("jsString = %q", got)
	}
}

func TestConditions(t *testing.T) {
	vars := map[string]any{"gold": 7.0, "s": "7", "phase": "act2", "inv": []any{"torch", 3.0}, "npc": map[string]any{"hp": 3.0},
		"none": nil, "list": []any{map[string]any{"a": 1.0}}}
	tests := []struct {
		id, op string
		value  any
		want   bool
	}{
		{"gold", "eq", 7.0, true},
		{"s", "eq", 7.0, false}, // strict
		{"s", "gt", 1.0, false}, // numbers only
		{"gold", "gte", 7.0, true},
		{"gold", "lt", "8", false},
		{"phase", "contains", "act", true},
		{"phase", "contains", 2.0, false},
		{"inv", "contains", "torch", true},
		{"inv", "contains", 3.0, true},
		{"inv", "contains", "3", false},
		{"inv.0", "eq", "torch", true},
		{"inv.1", "gt", 2.0, true},
		{"inv.length", "eq", 2.0, true},
		{"inv.01", "eq", 3.0, false},
		{"npc.hp", "lte", 3.0, true},
		{"npc", "eq", map[string]any{"hp": 3.0}, true},
		{"list", "contains", map[string]any{"a": 1.0}, true},
		{"ghost", "neq", 1.0, false}, // not set: false, neq included
		{"none", "eq", nil, true},
		{"none", "neq", 1.0, true},
		{"phase.length", "eq", 4.0, false}, // not into strings
		{"gold", "like", 7.0, false},
	}
	for _, tt := range tests {
		why := evalCondition(schema.Condition{VariableID: tt.id, Operator: tt.op, Value: tt.value}, vars)
		if why.Holds != tt.want {
			t.Errorf("%s %s %v = %v, want %v (%+v)", tt.id, tt.op, tt.value, why.Holds, tt.want, why)
		}
	}
	e := &entry{Entry: &schema.Entry{Conditions: []schema.Condition{{VariableID: "ghost", Operator: "eq", Value: 1.0},
		{VariableID: "gold", Operator: "eq", Value: 7.0}}, ConditionLogic: "any"}}
	if ok, why := conditionsHold(e, vars); !ok || !strings.Contains(why.Text(), "conditionLogic any") {
		t.Errorf("any: %v %s", ok, why.Text())
	}
	e.ConditionLogic = ""
	if ok, _ := conditionsHold(e, vars); ok {
		t.Error("all (the default) held with a variable that is not set")
	}
}

func TestSettings(t *testing.T) {
	in := func(fields map[string]schema.Pos, recursion int, yumina map[string]any) *render.Input {
		return &render.Input{Settings: schema.Settings{ContextTokens: 8192, RecursionLimit: recursion, Fields: fields}, EngineSettings: yumina}
	}
	s, w, err := readSettings(in(nil, 3, nil))
	if err != nil || len(w) > 0 || s.scanDepth != 2 || s.recursion != 0 || s.maxContext != 8192 || s.budget() != 8192 {
		t.Errorf("defaults: %+v %v %v", s, w, err)
	}
	s, _, _ = readSettings(in(map[string]schema.Pos{"recursionLimit": {}}, 3, nil))
	if s.recursion != 3 {
		t.Errorf("recursionLimit set: recursion %d, want 3", s.recursion)
	}
	s, w, err = readSettings(in(map[string]schema.Pos{"recursionLimit": {}}, 3, map[string]any{
		"lorebookRecursionDepth": 40.0, "lorebookScanDepth": 0, "lorebookBudgetCap": 100.0, "nope": true}))
	if err != nil || s.recursion != 10 || s.scanDepth != 0 || s.budget() != 100 || len(w) != 1 || !strings.Contains(w[0], "settings.yumina.nope") {
		t.Errorf("settings.yumina: %+v %v %v", s, w, err)
	}
	if s.window(5) != 0 {
		t.Errorf("lorebookScanDepth 0 scans from %d, want every message", s.window(5))
	}
	for _, bad := range []map[string]any{{"lorebookScanDepth": "2"}, {"lorebookScanDepth": 1.5}, {"lorebookBudgetPercent": 101.0}, {"maxContext": -1.0}} {
		if _, _, err := readSettings(in(nil, 0, bad)); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if _, err := Render(&render.Input{}); err == nil {
		t.Error("Render without a lorebook: no error")
	}
}

// Keywords lore's schema rejects can still come from a foreign format: Yumina
// finds "" in any text, and as a whole word wherever there is a word
// boundary.
func TestEmptyKeyword(t *testing.T) {
	d := 0
	book := &schema.Lorebook{Entries: []*schema.Entry{
		{ID: "sub", Section: schema.SectionChatHistory, Enabled: true, Depth: &d, Keywords: []schema.Keyword{{Text: ""}},
			Fields: map[string]schema.Pos{"depth": {}}},
		{ID: "word", Section: schema.SectionChatHistory, Enabled: true, Depth: &d, MatchWholeWords: true,
			Keywords: []schema.Keyword{{Text: ""}}, Fields: map[string]schema.Pos{"depth": {}}},
	}}
	for _, tt := range []struct {
		chat string
		want []string
	}{{"", []string{"sub"}}, {"…!", []string{"sub"}}, {"a", []string{"sub", "word"}}} {
		in := &render.Input{Book: book, Settings: schema.DefaultSettings(), Transcript: &schema.Transcript{
			Messages: []schema.Message{{Role: "user", Content: tt.chat}}}}
		res, err := Render(in)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range res.Activated {
			got = append(got, a.ID)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: %v, want %v", tt.chat, got, tt.want)
		}
	}
}

// Every entry gets reasons in Yumina's terms.
func TestExplain(t *testing.T) {
	book := `settings: {recursionLimit: 1}
variables: [{id: hp, type: number, default: 10}]
entries:
  - {id: preset, section: system-presets, content: Unset alwaysSend.}
  - {id: nowhere, section: chat-history, alwaysSend: true, depth: null, content: Dropped.}
  - {id: hurt, section: chat-history, conditions: [{variableId: hp, operator: lt, value: 20}], content: Hurt.}
  - {id: off, section: chat-history, enabled: false, keywords: [gate], conditions: [{variableId: hp, operator: eq, value: 10}], content: The ledger.}
  - {id: ledger, section: chat-history, depth: 0, keywords: [ledger], excludeRecursion: true, content: Debts.}
  - {id: hello, section: system-presets, role: greeting, content: Welcome.}
  - {id: bad, section: chat-history, keywords: ['/(x/'], content: Bad.}
  - {id: peace, section: chat-history, keywords: [gate], secondaryKeywords: [war], secondaryKeywordLogic: NOT_ANY, content: Peace.}
  - {id: strict, section: chat-history, keywords: [gate], conditions: [{variableId: hp, operator: eq, value: "10"}], content: Strict.}
  - {id: duel, section: examples, role: example, keywords: [gate], content: "<START>\n{{user}}: Hi."}
  - {id: prose, section: chat-history, role: example, alwaysSend: true, depth: 1, content: No speakers here.}
`
	r := renderFiles(t, book, "messages:\n  - {role: user, content: the gate of war}\n", "")
	want := map[string]string{
		"preset":  "alwaysSend is not set: Yumina's default is false",
		"nowhere": "without a depth (depth: null): Yumina sends it nowhere",
		"hurt":    "activates it by its conditions alone",
		"off":     "Yumina still matches it",
		"ledger":  "matched only in the content of entry off, and excludeRecursion",
		"hello":   "role greeting",
		"bad":     "is not a regular expression JavaScript accepts",
		"peace":   "secondary logic NOT_ANY fails",
		"strict":  "a number and a string never match",
		"duel":    "a matched one is not sent",
		"prose":   "no {{user}}: or {{char}}: line was found in it",
	}
	for id, s := range want {
		x := r.res.Explanations()[id]
		if x == nil || !strings.Contains(strings.Join(x.Texts(), "\n"), s) {
			t.Errorf("--explain %s: %+v, want %q", id, x, s)
		}
	}
	if a := r.res.InPrompt("hurt"); a == nil || a.Depth == nil || *a.Depth != defaultDepth || a.Trigger.In != "conditions" {
		t.Errorf("hurt: %+v", a)
	}
}

func TestLoreOnlyWarning(t *testing.T) {
	book := "format: Reply in verse.\npersona: {name: Ana, appearance: tall}\nentries:\n  - {id: a, section: system-presets, alwaysSend: true, content: A.}\n"
	r := renderFiles(t, book, "summary: Long ago.\nmessages: []\n", "")
	if len(r.res.Warnings) != 1 || !strings.Contains(r.res.Warnings[0], "the format text, the persona block, the transcript's summary") {
		t.Errorf("warnings: %q", r.res.Warnings)
	}
	if r.res.Messages[0].Content != "A." {
		t.Errorf("messages: %+v", r.res.Messages)
	}
}
