package lore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// actEntry builds an enabled entry with SPEC §1's defaults; opts adjust it.
func actEntry(id, section string, opts ...func(*schema.Entry)) *schema.Entry {
	e := &schema.Entry{ID: id, Name: id, Section: section, Content: "", Enabled: true,
		AlwaysSend: schema.DefaultAlwaysSend(section), Role: "character", APIRole: "system",
		ConditionLogic: "all", SecondaryKeywordLogic: schema.AndAny, Fields: map[string]schema.Pos{}}
	for _, o := range opts {
		o(e)
	}
	return e
}

func actKW(words ...string) []schema.Keyword {
	out := make([]schema.Keyword, len(words))
	for i, w := range words {
		out[i] = schema.Keyword{Text: w}
	}
	return out
}

func withKeys(words ...string) func(*schema.Entry) {
	return func(e *schema.Entry) { e.Keywords = actKW(words...) }
}

func withSecondary(logic string, words ...string) func(*schema.Entry) {
	return func(e *schema.Entry) { e.SecondaryKeywords = actKW(words...); e.SecondaryKeywordLogic = logic }
}

func withContent(s string) func(*schema.Entry) { return func(e *schema.Entry) { e.Content = s } }

func withAlways(v bool) func(*schema.Entry) {
	return func(e *schema.Entry) { e.AlwaysSend = v; e.Fields["alwaysSend"] = schema.Pos{} }
}

func isDisabled(e *schema.Entry)      { e.Enabled = false }
func isWhole(e *schema.Entry)         { e.MatchWholeWords = true }
func isPreventRec(e *schema.Entry)    { e.PreventRecursion = true }
func isExcludeRec(e *schema.Entry)    { e.ExcludeRecursion = true }
func atPos(p int) func(*schema.Entry) { return func(e *schema.Entry) { e.Position = p } }

func withCond(variable, op string, value any) func(*schema.Entry) {
	return func(e *schema.Entry) {
		e.Conditions = append(e.Conditions, schema.Condition{VariableID: variable, Operator: op, Value: value})
	}
}

func withAnyLogic(e *schema.Entry) { e.ConditionLogic = "any" }

func actChat(texts ...string) *schema.Transcript {
	tr := &schema.Transcript{}
	for i, t := range texts {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		tr.Messages = append(tr.Messages, schema.Message{Role: role, Content: t})
	}
	return tr
}

// summary renders an activation as "id@in/level" in Active order.
func actSummary(act *Activation) string {
	var parts []string
	for _, x := range act.Active {
		s := x.Entry.ID + "@" + x.Trigger.In
		if x.Level > 0 {
			s += "/" + string(rune('0'+x.Level))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

type actCase struct {
	name    string
	entries []*schema.Entry
	chat    *schema.Transcript
	window  int // 0 means "all messages" in these tests; use -1 for none
	limit   *int
	vars    map[string]any
	want    string
}

func runActivate(t *testing.T, c actCase) *Activation {
	t.Helper()
	book := &schema.Lorebook{Entries: c.entries}
	book.Manifest.Name = "Test"
	book.Manifest.Variables = []schema.Variable{
		{ID: "phase", Type: "string", Default: "act1"},
		{ID: "gold", Type: "number", Default: 12.0},
		{ID: "inventory", Type: "list", Default: []any{"torch", "rope"}},
	}
	s := schema.DefaultSettings()
	if c.limit != nil {
		s.RecursionLimit = *c.limit
	}
	tr := c.chat
	if tr == nil {
		tr = &schema.Transcript{}
	}
	window := c.window
	if window == 0 {
		window = len(tr.Messages)
	}
	return Activate(&render.Input{Book: book, Transcript: tr, Vars: c.vars, Settings: s}, window)
}

func actInt(n int) *int { return &n }

func TestActivateRules(t *testing.T) {
	cases := []actCase{
		// enabled
		{name: "enabled always-sent entry is in", entries: []*schema.Entry{actEntry("a", schema.SectionSystemPresets)}, want: "a@always"},
		{name: "disabled entry never is", entries: []*schema.Entry{actEntry("a", schema.SectionSystemPresets, isDisabled),
			actEntry("b", schema.SectionChatHistory, isDisabled, withKeys("tavern"))}, chat: actChat("the tavern"), want: ""},

		// conditions apply to every section
		{name: "true condition on an always-sent entry", entries: []*schema.Entry{actEntry("a", schema.SectionPostHistory, withCond("phase", "eq", "act1"))}, want: "a@always"},
		{name: "false condition removes an always-sent entry", entries: []*schema.Entry{actEntry("a", schema.SectionPostHistory, withCond("phase", "eq", "act2"))}, want: ""},
		{name: "variables file overrides the default", entries: []*schema.Entry{actEntry("a", schema.SectionPostHistory, withCond("phase", "eq", "act2"))}, vars: map[string]any{"phase": "act2"}, want: "a@always"},
		{name: "false condition beats a matching keyword", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("tavern"), withCond("gold", "gt", 100))}, chat: actChat("the tavern"), want: ""},
		{name: "true condition with a matching keyword", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("tavern"), withCond("gold", "gt", 10))}, chat: actChat("the tavern"), want: "a@message:0"},
		{name: "conditionLogic any: one true is enough", entries: []*schema.Entry{actEntry("a", schema.SectionSystemPresets, withAnyLogic, withCond("gold", "gt", 100), withCond("inventory", "contains", "rope"))}, want: "a@always"},
		{name: "conditionLogic any: none true", entries: []*schema.Entry{actEntry("a", schema.SectionSystemPresets, withAnyLogic, withCond("gold", "gt", 100), withCond("inventory", "contains", "sword"))}, want: ""},
		{name: "conditionLogic all: one false is enough", entries: []*schema.Entry{actEntry("a", schema.SectionSystemPresets, withCond("gold", "lt", 100), withCond("inventory", "contains", "sword"))}, want: ""},
		{name: "undeclared variable makes its condition false", entries: []*schema.Entry{actEntry("a", schema.SectionSystemPresets, withCond("mood", "neq", "angry"))}, want: ""},
		{name: "undeclared but given variable", entries: []*schema.Entry{actEntry("a", schema.SectionSystemPresets, withCond("mood", "neq", "angry"))}, vars: map[string]any{"mood": "calm"}, want: "a@always"},

		// alwaysSend
		{name: "constant chat-history entry", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withAlways(true))}, want: "a@always"},
		{name: "chat-history without keywords is not sent", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory)}, chat: actChat("anything"), want: ""},
		{name: "alwaysSend false outside chat-history needs its keyword", entries: []*schema.Entry{actEntry("a", schema.SectionPostHistory, withAlways(false), withKeys("storm"))}, chat: actChat("calm seas"), want: ""},
		{name: "alwaysSend false outside chat-history activated by keyword", entries: []*schema.Entry{actEntry("a", schema.SectionPostHistory, withAlways(false), withKeys("storm"))}, chat: actChat("a storm!"), want: "a@message:0"},
		{name: "always-sent entry keeps trigger always despite keywords", entries: []*schema.Entry{actEntry("a", schema.SectionSystemPresets, withKeys("storm"))}, chat: actChat("a storm!"), want: "a@always"},

		// primary keywords
		{name: "any primary keyword activates", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("inn", "tavern"))}, chat: actChat("hello", "the TAVERN"), want: "a@message:1"},
		{name: "no primary keyword", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("inn", "tavern"))}, chat: actChat("hello", "the road"), want: ""},
		{name: "full-width text", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("tavern"))}, chat: actChat("ＴＡＶＥＲＮ"), want: "a@message:0"},
		{name: "whole words blocks barrel", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("bar"), isWhole)}, chat: actChat("a barrel"), want: ""},
		{name: "whole words at a boundary", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("bar"), isWhole)}, chat: actChat("to the bar."), want: "a@message:0"},
		{name: "CJK keyword with whole words is a substring", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("旅館"), isWhole)}, chat: actChat("この旅館は"), want: "a@message:0"},
		{name: "regex keyword", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys(`/\bknights?\b/i`))}, chat: actChat("Two Knights"), want: "a@message:0"},
		{name: "regex keyword no match", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys(`/\bknights?\b/i`))}, chat: actChat("knighthood"), want: ""},
		{name: "bad regex never matches", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys(`/(knight/`))}, chat: actChat("(knight"), want: ""},

		// scan window and message boundaries
		{name: "keyword inside the window", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("tavern"))}, chat: actChat("tavern", "b", "c"), window: 3, want: "a@message:0"},
		{name: "keyword outside the window", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("tavern"))}, chat: actChat("tavern", "b", "c"), window: 2, want: ""},
		{name: "window -1 scans nothing", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("tavern")), actEntry("k", schema.SectionChatHistory, withAlways(true))}, chat: actChat("tavern"), window: -1, want: "k@always"},
		{name: "keyword across two messages never matches", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("old maren"))}, chat: actChat("old", "maren"), want: ""},
		{name: "keyword within one message", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("old maren"))}, chat: actChat("old", "old maren"), want: "a@message:1"},
		{name: "newest triggering message is the trigger", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("tavern"))}, chat: actChat("tavern", "x", "tavern", "y"), want: "a@message:2"},

		// secondary logic
		{name: "AND_ANY holds", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.AndAny, "mage", "spell"))}, chat: actChat("a knight casts a spell"), want: "a@message:0"},
		{name: "AND_ANY fails", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.AndAny, "mage", "spell"))}, chat: actChat("a knight rides"), want: ""},
		{name: "secondary in another message of the window counts", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.AndAny, "spell"))}, chat: actChat("a spell", "a knight"), want: "a@message:1"},
		{name: "secondary before the scan window does not count", window: 1, entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.AndAny, "spell"))}, chat: actChat("a spell", "a knight"), want: ""},
		{name: "AND_ALL across two messages", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.AndAll, "mage", "spell"))}, chat: actChat("a mage", "a spell", "a knight"), want: "a@message:2"},
		{name: "a keyword never spans two messages", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("Silver Order"))}, chat: actChat("the Silver", "Order rides"), want: ""},
		{name: "AND_ALL holds", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.AndAll, "mage", "spell"))}, chat: actChat("knight, mage and spell"), want: "a@message:0"},
		{name: "AND_ALL fails", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.AndAll, "mage", "spell"))}, chat: actChat("knight and spell"), want: ""},
		{name: "NOT_ANY holds", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.NotAny, "mage", "spell"))}, chat: actChat("a knight rides"), want: "a@message:0"},
		{name: "NOT_ANY fails", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.NotAny, "mage", "spell"))}, chat: actChat("a knight casts a spell"), want: ""},
		{name: "NOT_ALL holds", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.NotAll, "mage", "spell"))}, chat: actChat("a knight casts a spell"), want: "a@message:0"},
		{name: "NOT_ALL fails", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.NotAll, "mage", "spell"))}, chat: actChat("a knight mage casts a spell"), want: ""},
		{name: "secondary alone never activates", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.AndAny, "spell"))}, chat: actChat("a spell"), want: ""},
		{name: "NOT_ANY fails on a secondary anywhere in the window", entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.NotAny, "spell"))}, chat: actChat("a knight", "knight spell"), want: ""},

		// recursion
		{name: "content of a keyword entry activates another", entries: []*schema.Entry{
			actEntry("stag", schema.SectionChatHistory, withKeys("tavern"), withContent("Its keeper is Maren.")),
			actEntry("maren", schema.SectionChatHistory, withKeys("maren"))}, chat: actChat("the tavern"), want: "stag@message:0 maren@entry:stag/1"},
		{name: "recursion off with recursionLimit 0", limit: actInt(0), entries: []*schema.Entry{
			actEntry("stag", schema.SectionChatHistory, withKeys("tavern"), withContent("Its keeper is Maren.")),
			actEntry("maren", schema.SectionChatHistory, withKeys("maren"))}, chat: actChat("the tavern"), want: "stag@message:0"},
		{name: "preventRecursion: its content activates nothing", entries: []*schema.Entry{
			actEntry("stag", schema.SectionChatHistory, withKeys("tavern"), withContent("Its keeper is Maren."), isPreventRec),
			actEntry("maren", schema.SectionChatHistory, withKeys("maren"))}, chat: actChat("the tavern"), want: "stag@message:0"},
		{name: "excludeRecursion: only chat activates it", entries: []*schema.Entry{
			actEntry("stag", schema.SectionChatHistory, withKeys("tavern"), withContent("Its keeper is Maren.")),
			actEntry("maren", schema.SectionChatHistory, withKeys("maren"), isExcludeRec)}, chat: actChat("the tavern"), want: "stag@message:0"},
		{name: "excludeRecursion entry activated by chat", entries: []*schema.Entry{
			actEntry("maren", schema.SectionChatHistory, withKeys("maren"), isExcludeRec)}, chat: actChat("maren"), want: "maren@message:0"},
		{name: "levels up to recursionLimit", limit: actInt(2), entries: []*schema.Entry{
			actEntry("a", schema.SectionChatHistory, withKeys("alpha"), withContent("beta")),
			actEntry("b", schema.SectionChatHistory, withKeys("beta"), withContent("gamma")),
			actEntry("c", schema.SectionChatHistory, withKeys("gamma"), withContent("delta")),
			actEntry("d", schema.SectionChatHistory, withKeys("delta"))}, chat: actChat("alpha"), want: "a@message:0 b@entry:a/1 c@entry:b/2"},
		{name: "an entry activates once, at its lowest level", entries: []*schema.Entry{
			actEntry("a", schema.SectionChatHistory, withKeys("alpha"), withContent("beta gamma")),
			actEntry("b", schema.SectionChatHistory, withKeys("beta"), withContent("gamma")),
			actEntry("c", schema.SectionChatHistory, withKeys("gamma"), withContent("alpha beta"))}, chat: actChat("alpha"), want: "a@message:0 b@entry:a/1 c@entry:a/1"},
		{name: "chat beats recursion", entries: []*schema.Entry{
			actEntry("a", schema.SectionChatHistory, withKeys("alpha"), withContent("beta")),
			actEntry("b", schema.SectionChatHistory, withKeys("beta"))}, chat: actChat("alpha beta"), want: "a@message:0 b@message:0"},
		{name: "constant content is scanned", entries: []*schema.Entry{
			actEntry("k", schema.SectionChatHistory, withAlways(true), withContent("the forest")),
			actEntry("f", schema.SectionChatHistory, withKeys("forest"))}, window: -1, want: "k@always f@entry:k/1"},
		{name: "always-sent content of other sections is not scanned", entries: []*schema.Entry{
			actEntry("p", schema.SectionSystemPresets, withContent("the forest")),
			actEntry("f", schema.SectionChatHistory, withKeys("forest"))}, chat: actChat("hello"), want: "p@always"},
		{name: "keyword-activated entry of another section is scanned", entries: []*schema.Entry{
			actEntry("p", schema.SectionPostHistory, withAlways(false), withKeys("storm"), withContent("the forest")),
			actEntry("f", schema.SectionChatHistory, withKeys("forest"))}, chat: actChat("storm"), want: "f@entry:p/1 p@message:0"},
		{name: "secondary logic applies in the content", entries: []*schema.Entry{
			actEntry("a", schema.SectionChatHistory, withKeys("alpha"), withContent("beta without the other")),
			actEntry("b", schema.SectionChatHistory, withKeys("beta"), withSecondary(schema.AndAny, "gamma"))}, chat: actChat("alpha gamma"), want: "a@message:0"},
		{name: "macros are expanded before content is scanned", entries: []*schema.Entry{
			actEntry("a", schema.SectionChatHistory, withKeys("alpha"), withContent("{{getvar::phase}}")),
			actEntry("b", schema.SectionChatHistory, withKeys("act1"))}, chat: actChat("alpha"), want: "a@message:0 b@entry:a/1"},
		{name: "an entry's own keyword in its content is no recursion", entries: []*schema.Entry{
			actEntry("a", schema.SectionChatHistory, withKeys("alpha"), withContent("alpha"))}, chat: actChat("alpha"), want: "a@message:0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := actSummary(runActivate(t, c)); got != c.want {
				t.Errorf("active = %q, want %q", got, c.want)
			}
		})
	}
}

func TestActivateOrderHitsParents(t *testing.T) {
	c := actCase{entries: []*schema.Entry{
		actEntry("post", schema.SectionPostHistory),
		actEntry("z-card", schema.SectionChatHistory, withKeys("tavern"), atPos(1)),
		actEntry("a-card", schema.SectionChatHistory, withKeys("tavern", "inn"), atPos(1), withContent("Maren")),
		actEntry("early", schema.SectionChatHistory, withKeys("road"), atPos(0), withContent("maren")),
		actEntry("maren", schema.SectionChatHistory, withKeys("maren")),
		actEntry("sys", schema.SectionSystemPresets, atPos(5)),
	}, chat: actChat("the tavern inn tavern", "the road", "tavern", "nothing")}
	act := runActivate(t, c)
	if got, want := actSummary(act), "sys@always early@message:1 a-card@message:2 z-card@message:2 maren@entry:early/1 post@always"; got != want {
		t.Fatalf("order = %q, want %q", got, want)
	}
	byID := map[string]*render.Activated{}
	for _, x := range act.Active {
		byID[x.Entry.ID] = x
	}
	if x := byID["a-card"]; x.Hits != 4 || x.LastMessage != 2 || x.Trigger.Keyword != "tavern" {
		t.Errorf("a-card: hits %d last %d keyword %q, want 4, 2, tavern", x.Hits, x.LastMessage, x.Trigger.Keyword)
	}
	if x := byID["z-card"]; x.Hits != 3 {
		t.Errorf("z-card hits = %d, want 3", x.Hits)
	}
	if x := byID["maren"]; fmt.Sprint(x.ParentLists) != "[[early a-card]]" || x.Hits != 0 || x.LastMessage != -1 {
		t.Errorf("maren: parents %v hits %d last %d", x.ParentLists, x.Hits, x.LastMessage)
	}
	if x := byID["sys"]; x.LastMessage != -1 || x.Trigger.Keyword != "" {
		t.Errorf("sys: %+v", x)
	}
}

func TestActivateExplain(t *testing.T) {
	c := actCase{entries: []*schema.Entry{
		actEntry("stag", schema.SectionChatHistory, withKeys("tavern"), withContent("Maren keeps the bar.")),
		actEntry("maren", schema.SectionChatHistory, withKeys("maren")),
		actEntry("off", schema.SectionChatHistory, withKeys("tavern"), isDisabled),
		actEntry("act2", schema.SectionChatHistory, withKeys("tavern"), withCond("phase", "eq", "act2")),
		actEntry("order", schema.SectionChatHistory, withKeys("knight"), withSecondary(schema.NotAny, "spell", "mage")),
		actEntry("far", schema.SectionChatHistory, withKeys("dragon")),
		actEntry("rules", schema.SectionSystemPresets),
		actEntry("woods", schema.SectionChatHistory, withAlways(true)),
		actEntry("lonely", schema.SectionChatHistory),
		actEntry("bar", schema.SectionChatHistory, withKeys("bar"), isExcludeRec),
		actEntry("inns", schema.SectionChatHistory, withKeys("tavern，inn")),
	}, chat: actChat("old news", "a knight with a spell", "who runs this tavern? I ask, because I am thirsty after the long road")}
	c.vars = map[string]any{"phase": "act1"}
	act := runActivate(t, c)
	want := map[string][]string{
		"stag":   {`keyword "tavern" matched in message:2: “who runs this tavern? I ask, because I am thirsty…”`},
		"maren":  {`keyword "maren" matched in the content of entry stag (recursion level 1): “Maren keeps the bar.”`},
		"off":    {`disabled (enabled: false): never sent`},
		"act2":   {`left out: condition phase eq "act2" is false (phase is "act1", from the variables file)`},
		"order":  {`keyword "knight" matched in message:1: “a knight with a spell”, but secondary logic NOT_ANY fails in the scan window: "spell" matched ("mage" did not)`},
		"far":    {`no keyword matched in the 3 messages of the transcript (scan window 3)`},
		"rules":  {`always sent (alwaysSend defaults to true in section system-presets)`},
		"woods":  {`constant entry (chat-history with alwaysSend: true): sent without keywords`},
		"lonely": {`left out: a chat-history entry without keywords is sent only with alwaysSend: true`},
		"bar": {`no keyword matched in the 3 messages of the transcript (scan window 3)`,
			`keyword "bar" matched in the content of entry stag, but this entry has excludeRecursion: only chat messages can activate it`},
		"inns": {`no keyword matched in the 3 messages of the transcript (scan window 3)`,
			`keyword "tavern，inn" is 2 keywords joined by "，": it matches only where the whole text is written, never on "tavern" alone (lint: joined-keywords; lore lint --fix splits it)`},
	}
	if len(act.Why()) != len(c.entries) {
		t.Errorf("Why has %d entries, want %d", len(act.Why()), len(c.entries))
	}
	for id, w := range want {
		x := act.Why()[id]
		if x == nil {
			t.Errorf("%s: no explanation", id)
			continue
		}
		if got := strings.Join(x.Texts(), "\n"); got != strings.Join(w, "\n") {
			t.Errorf("%s:\n got: %s\nwant: %s", id, got, strings.Join(w, "\n"))
		}
	}
	if !act.Why()["stag"].Active || act.Why()["far"].Active {
		t.Error("Active flags wrong")
	}
}

func TestActivateTransformsBeforeScanning(t *testing.T) {
	book := &schema.Lorebook{Entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("tavern"))}}
	book.Manifest.Transforms = []schema.Transform{{Pattern: `(?s)<status>.*?</status>`, MinDepth: actInt(1)}}
	tr := actChat("<status>tavern</status> hi", "later")
	in := &render.Input{Book: book, Transcript: tr, Settings: schema.DefaultSettings()}
	if got := actSummary(Activate(in, 2)); got != "" {
		t.Errorf("transformed-away keyword activated: %q", got)
	}
	tr = actChat("later", "<status>tavern</status> hi") // depth 0: not transformed
	in.Transcript = tr
	if got := actSummary(Activate(in, 2)); got != "a@message:1" {
		t.Errorf("got %q, want a@message:1", got)
	}
	if tr.Messages[1].Content != "<status>tavern</status> hi" {
		t.Error("transcript was modified")
	}
}

func TestActivateNilSafety(t *testing.T) {
	act := Activate(&render.Input{}, 4)
	if len(act.Active) != 0 || len(act.Why()) != 0 {
		t.Errorf("empty input: %+v", act)
	}
	book := &schema.Lorebook{Entries: []*schema.Entry{actEntry("a", schema.SectionChatHistory, withKeys("x"))}}
	if got := actSummary(Activate(&render.Input{Book: book}, 10)); got != "" {
		t.Errorf("no transcript: %q", got)
	}
}

func TestActivateExplainRecursionAndWindow(t *testing.T) {
	c := actCase{limit: actInt(1), entries: []*schema.Entry{
		actEntry("a", schema.SectionChatHistory, withKeys("alpha"), withContent("beta")),
		actEntry("b", schema.SectionChatHistory, withKeys("beta"), withContent("gamma")),
		actEntry("c", schema.SectionChatHistory, withKeys("gamma")),
		actEntry("p", schema.SectionChatHistory, withKeys("pi"), withContent("rho"), isPreventRec),
		actEntry("r", schema.SectionChatHistory, withKeys("rho")),
		actEntry("s", schema.SectionChatHistory, withKeys("sigma"), withSecondary(schema.AndAll, "x", "y")),
		actEntry("o", schema.SectionChatHistory, withKeys("omega")),
	}, chat: actChat("omega", "beta of omega", "alpha pi", "sigma x", "nothing"), window: 3}
	act := runActivate(t, c)
	want := map[string][]string{
		"b": {`keyword "beta" matched in the content of entry a (recursion level 1): “beta”`},
		"c": {`no keyword matched in the last 3 messages (scan window)`,
			`keyword "gamma" matched in the content of entry b, but that would be recursion level 2, above recursionLimit 1`},
		"r": {`no keyword matched in the last 3 messages (scan window)`,
			`keyword "rho" matched in the content of entry p, but p has preventRecursion: its content activates nothing`},
		"s": {`keyword "sigma" matched in message:3: “sigma x”, but secondary logic AND_ALL fails in the scan window: "x" matched ("y" did not)`},
		"o": {`no keyword matched in the last 3 messages (scan window)`,
			`keyword "omega" matched in message:1, before the scan window: “beta of omega”`},
	}
	for id, w := range want {
		if got := strings.Join(act.Why()[id].Texts(), "\n"); got != strings.Join(w, "\n") {
			t.Errorf("%s:\n got: %s\nwant: %s", id, got, strings.Join(w, "\n"))
		}
	}
	// b was out of the window in chat (message:1) but is in by recursion.
	if got := actSummary(act); got != "a@message:2 p@message:2 b@entry:a/1" {
		t.Errorf("active = %q", got)
	}
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("word ", 20)
	tests := []struct {
		text       string
		start, end int
		want       string
	}{
		{"a tavern", 2, 8, "“a tavern”"},
		{long + "tavern\n\n  here", 100, 106, "“…word word word word word word tavern here”"},
		{"tavern " + long, 0, 6, "“tavern word word word word word word…”"},
		{strings.Repeat("庭", 40) + "旅館", 120, 126, "“…" + strings.Repeat("庭", 30) + "旅館”"},
	}
	for _, tt := range tests {
		if got := snippet(tt.text, tt.start, tt.end); got != tt.want {
			t.Errorf("snippet(%q, %d, %d) = %s, want %s", tt.text, tt.start, tt.end, got, tt.want)
		}
	}
}

func TestActivateNilEntry(t *testing.T) {
	book := &schema.Lorebook{Entries: []*schema.Entry{nil, actEntry("a", schema.SectionSystemPresets, withContent("{{char}}"))}}
	act := Activate(&render.Input{Book: book, Transcript: actChat("x")}, 1)
	if got := actSummary(act); got != "a@always" {
		t.Errorf("got %q", got)
	}
}

// TestActivateFixtures activates the two sample lorebooks as loaded from disk.
func TestActivateFixtures(t *testing.T) {
	tests := []struct {
		book, transcript, vars string
		window                 int
		want                   string
	}{
		{"../../fixtures/eldoria/book", "../../fixtures/eldoria/transcript.yaml", "../../fixtures/eldoria/vars.yaml", 4,
			"seraphina@always world-overview@always narrator-rules@always seraphina-examples@always old-maren@message:4 silver-order@message:5 sleeping-stag@message:3 whisperwood@always greeting@always status-format@always"},
		{"../../fixtures/sakura/book.yaml", "../../fixtures/sakura/transcript.yaml", "", 4,
			"chiyo@always chiyo-examples@always ryokan@message:1 sakura-tree@message:1"},
	}
	for _, tt := range tests {
		t.Run(tt.book, func(t *testing.T) {
			book, _, err := schema.Load(tt.book)
			if err != nil {
				t.Fatal(err)
			}
			tr, _, err := schema.LoadTranscript(tt.transcript)
			if err != nil {
				t.Fatal(err)
			}
			in := &render.Input{Book: book, Transcript: tr, Settings: book.Manifest.Settings}
			if tt.vars != "" {
				v, _, err := schema.LoadVars(tt.vars)
				if err != nil {
					t.Fatal(err)
				}
				in.Vars = v.Values
			}
			if got := actSummary(Activate(in, tt.window)); got != tt.want {
				t.Errorf("active:\n got: %s\nwant: %s", got, tt.want)
			}
		})
	}
}

// TestRecursionHub: thousands of constant entries whose contents all name one
// entry make it a child of every one of them, each parent recorded once, at
// level 1 (and in linear time: the check for a repeated parent is O(1)).
func TestRecursionHub(t *testing.T) {
	const n = 5000
	book := &schema.Lorebook{Manifest: schema.Manifest{Name: "hub", Settings: schema.DefaultSettings()}}
	for i := range n {
		book.Entries = append(book.Entries, &schema.Entry{ID: fmt.Sprintf("c%05d", i), Section: schema.SectionChatHistory,
			AlwaysSend: true, Enabled: true, Content: "the hub again", ConditionLogic: "all", SecondaryKeywordLogic: schema.AndAny})
	}
	book.Entries = append(book.Entries, &schema.Entry{ID: "hub", Section: schema.SectionChatHistory, Enabled: true,
		Keywords: []schema.Keyword{{Text: "hub"}}, Content: "The hub.", ConditionLogic: "all", SecondaryKeywordLogic: schema.AndAny})
	act := Activate(input(book, &schema.Transcript{}), 4)
	var hub *render.Activated
	for _, a := range act.Active {
		if a.Entry.ID == "hub" {
			hub = a
		}
	}
	if hub == nil || hub.Level != 1 || len(hub.ParentLists) != 1 || len(hub.ParentLists[0]) != n {
		t.Fatalf("hub: %+v", hub)
	}
	seen := map[string]bool{}
	for _, p := range hub.ParentLists[0] {
		if seen[p] {
			t.Fatalf("parent %s recorded twice", p)
		}
		seen[p] = true
	}
}
