package render

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// chars4 makes token arithmetic in tests exact: tok(n) is n tokens.
func counter(t testing.TB) tokenize.Counter {
	t.Helper()
	c, err := tokenize.Get(tokenize.Chars4)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tok returns a text of n chars4 tokens, distinct per tag so cut positions
// are visible.
func tok(tag string, n int) string {
	if n == 0 {
		return ""
	}
	s := strings.Repeat(fmt.Sprintf("%-4.4s", tag), n)
	return s
}

func settings(available int) schema.Settings {
	s := schema.DefaultSettings()
	s.ContextTokens = available
	s.ResponseReserve = 0
	return s
}

func req(section, key string, n int) Piece {
	return Piece{Section: section, Key: key, Content: tok(key, n), Message: -1}
}

func msg(i, n int, last bool) Piece {
	sec := budgetHistory
	if last {
		sec = budgetLastAction
	}
	k := fmt.Sprintf("message:%d", i)
	return Piece{Step: 10, Section: sec, Key: k, Content: tok(fmt.Sprintf("m%d", i), n), Message: i}
}

func card(id string, n int, a Activated) Piece {
	a.Entry = &schema.Entry{ID: id, Section: schema.SectionChatHistory, Position: a.Entry.Position, AlwaysSend: a.Entry.AlwaysSend}
	return Piece{Step: 6, Section: budgetCards, Key: id, Content: tok(id, n), Card: &a, Message: -1}
}

func mem(i, n int, text string) Piece {
	return Piece{Step: 9, Section: budgetMemory, Key: fmt.Sprintf("memory:%d", i), Content: text + " " + tok("pad", n), Message: -1}
}

func keys(ps []Piece) []string {
	var out []string
	for _, p := range ps {
		out = append(out, keyOf(p))
	}
	return out
}

func section(t *testing.T, r *Report, name string) SectionReport {
	t.Helper()
	s := r.Section(name)
	if s == nil {
		t.Fatalf("no section %s", name)
	}
	return *s
}

func TestRequiredUnderCap(t *testing.T) {
	c := counter(t)
	pieces := []Piece{
		req(budgetSystemPresets, "rules", 100),
		req(budgetPlotEssentials, "plot-essentials", 100),
		req(budgetExamples, "ex", 100),
		req(budgetSummary, "summary", 100),
		msg(0, 50, false),
		req(budgetFrontMemory, "front-memory", 100),
		msg(1, 100, true),
		req(budgetPostHistory, "note", 100),
	}
	// Required = 100×7 = 700 = the cap of 1000 tokens exactly: all whole.
	kept, r := Budget(pieces, settings(1000), c)
	if got := keys(kept); !slices.Equal(got, keys(pieces)) {
		t.Errorf("kept %v, want everything", got)
	}
	if r.RequiredCap != 700 || r.RequiredUsed != 700 || r.Remainder != 300 {
		t.Errorf("cap %d used %d R %d; want 700 700 300", r.RequiredCap, r.RequiredUsed, r.Remainder)
	}
	for _, s := range r.Sections {
		if s.Cut || len(s.Dropped) != 0 {
			t.Errorf("%s: cut=%v dropped=%v under the cap", s.Name, s.Cut, s.Dropped)
		}
		if s.Class == "required" && s.Budget != 700 {
			t.Errorf("%s budget = %d, want the cap 700", s.Name, s.Budget)
		}
	}
	if r.Total != 750 {
		t.Errorf("total = %d, want 750", r.Total)
	}
}

func TestRequiredOverCap(t *testing.T) {
	c := counter(t)
	presets := Piece{Section: budgetSystemPresets, Key: "rules", Content: strings.Repeat("abc ", 80), Message: -1}
	pieces := []Piece{
		presets,                                 // 80, priority 3: cut to what is left (50)
		req(budgetSystemPresets, "rules-2", 10), // after the cut piece: left out
		req(budgetPlotEssentials, "plot-essentials", 300), // priority 2
		req(budgetExamples, "ex", 10),                     // priority 5: left out
		{Step: 7, Content: "[Start]", Message: -1},        // marker: always (2 tokens)
		req(budgetSummary, "summary", 10),                 // priority 4: left out
		req(budgetFrontMemory, "front-memory", 48),        // always
		msg(0, 100, true),                                 // always
		req(budgetPostHistory, "note", 200),               // priority 1
	}
	// cap 700: always 150, note 200 (350), plot 300 (650), rules cut to 50.
	kept, r := Budget(pieces, settings(1000), c)
	want := []string{"rules", "plot-essentials", "", "front-memory", "message:0", "note"}
	if got := keys(kept); !slices.Equal(got, want) {
		t.Fatalf("kept %v, want %v", got, want)
	}
	cut := kept[0]
	if !cut.Cut || !strings.HasPrefix(presets.Content, cut.Content) || c.Count(cut.Content) != 50 {
		t.Errorf("cut piece: Cut=%v, %d tokens, prefix=%v; want a 50-token prefix",
			cut.Cut, c.Count(cut.Content), strings.HasPrefix(presets.Content, cut.Content))
	}
	if r.RequiredUsed != 700 {
		t.Errorf("Required used %d, want the cap 700", r.RequiredUsed)
	}
	sp := section(t, r, budgetSystemPresets)
	if !sp.Cut || sp.Tokens != 50 || !slices.Equal(sp.Dropped, []string{"rules-2"}) {
		t.Errorf("system-presets = %+v", sp)
	}
	for _, name := range []string{budgetSummary, budgetExamples} {
		if s := section(t, r, name); !slices.Equal(s.Dropped, []string{name}) || s.Tokens != 0 {
			t.Errorf("%s = %+v, want the whole section left out", name, s)
		}
	}
	if s := section(t, r, budgetPostHistory); s.Tokens != 200 || s.Cut {
		t.Errorf("post-history = %+v, want whole", s)
	}
}

func TestRequiredAlwaysOverCap(t *testing.T) {
	c := counter(t)
	pieces := []Piece{
		req(budgetSystemPresets, "rules", 10),
		msg(0, 20, false),
		msg(1, 800, true),
		req(budgetPostHistory, "note", 10),
	}
	kept, r := Budget(pieces, settings(1000), c)
	// Everything Required but the last action is out; the older message is
	// Dynamic and fits in R = 1000 − 800 = 200.
	if got := keys(kept); !slices.Equal(got, []string{"message:0", "message:1"}) {
		t.Errorf("kept %v, want the two messages", got)
	}
	if s := section(t, r, budgetLastAction); s.Tokens != 800 || s.Cut {
		t.Errorf("last action %+v, want whole", s)
	}
	if r.Remainder != 200 || r.RequiredUsed != 800 {
		t.Errorf("R = %d, want 200", r.Remainder)
	}
}

func TestRequiredNoRoomToCut(t *testing.T) {
	c := counter(t)
	pieces := []Piece{req(budgetPostHistory, "note", 100), msg(0, 700, true)}
	kept, r := Budget(pieces, settings(1000), c)
	if got := keys(kept); !slices.Equal(got, []string{"message:0"}) {
		t.Errorf("kept %v", got)
	}
	if s := section(t, r, budgetPostHistory); s.Cut || !slices.Equal(s.Dropped, []string{budgetPostHistory}) {
		t.Errorf("post-history %+v: with 0 tokens left it is left out, not cut to nothing", s)
	}
}

func TestExampleMarkersGoWithExamples(t *testing.T) {
	c := counter(t)
	marker := func() Piece { return Piece{Step: 4, Content: "[Example Chat]", Message: -1} } // 4 tokens
	ex := func(k string, n int) Piece { p := req(budgetExamples, k, n); p.Step = 4; return p }
	pieces := []Piece{
		marker(), ex("ex-a", 20), ex("ex-a", 20),
		marker(), ex("ex-b", 20),
		msg(0, 600, true),
	}
	// cap 700: 600 + 4 + 20 + 20 = 644; the second marker (4) fits, ex-b is
	// cut to 700-648 = 52 → fits whole (20). Shrink the cap to force a drop.
	s := settings(1000)
	s.RequiredCap = 0.645 // cap 645: ex-a whole (644), second marker cannot fit
	kept, r := Budget(pieces, s, c)
	want := []string{"", "ex-a", "ex-a", "message:0"}
	if got := keys(kept); !slices.Equal(got, want) {
		t.Fatalf("kept %v, want %v", got, want)
	}
	if e := section(t, r, budgetExamples); e.Tokens != 44 || !slices.Equal(e.Dropped, []string{"ex-b"}) {
		t.Errorf("examples %+v: want 44 tokens (marker + two turns), ex-b left out", e)
	}
}

func TestDynamicShares(t *testing.T) {
	c := counter(t)
	// available 1000, Required = last action 200 → R = 800.
	// cards 25 % = 200; history 50 % = 400 (+ unused cards); memory the rest.
	base := []Piece{
		card("big", 150, Activated{Entry: &schema.Entry{}, LastMessage: 5}),
		msg(0, 100, false), msg(1, 100, false), msg(2, 100, false), msg(3, 100, false), msg(4, 100, false),
		msg(5, 200, true),
	}
	t.Run("with memory", func(t *testing.T) {
		pieces := append(slices.Clone(base), mem(0, 95, "m"), mem(1, 95, "m"))
		kept, r := Budget(pieces, settings(1000), c)
		cards, hist, memory := section(t, r, budgetCards), section(t, r, budgetHistory), section(t, r, budgetMemory)
		if cards.Budget != 200 || cards.Tokens != 150 {
			t.Errorf("cards %+v, want budget 200 used 150", cards)
		}
		// history: 400 + 50 unused by cards = 450 → four messages (400).
		if hist.Budget != 450 || hist.Tokens != 400 || !slices.Equal(hist.Dropped, []string{"message:0"}) {
			t.Errorf("history %+v, want budget 450, 400 used, message:0 out", hist)
		}
		// memory: 800 - 150 - 400 = 250 → both items (96 each).
		if memory.Budget != 250 || memory.Tokens != 192 {
			t.Errorf("memory %+v, want budget 250 used 192", memory)
		}
		if len(kept) != len(pieces)-1 {
			t.Errorf("kept %v", keys(kept))
		}
	})
	t.Run("without memory", func(t *testing.T) {
		_, r := Budget(base, settings(1000), c)
		hist := section(t, r, budgetHistory)
		// history: 75 % of 800 = 600 + 50 = 650 → all five messages (500).
		if hist.Budget != 650 || hist.Tokens != 500 || len(hist.Dropped) != 0 {
			t.Errorf("history %+v, want budget 650, all 500 in", hist)
		}
		if hist.Share != 0.75 {
			t.Errorf("history share %v, want 0.75", hist.Share)
		}
	})
	t.Run("manifest shares", func(t *testing.T) {
		s := settings(1000)
		s.Shares = schema.Shares{Cards: 0.10, History: 0.30, Memory: 0.60}
		_, r := Budget(append(slices.Clone(base), mem(0, 1, "m")), s, c)
		if b := section(t, r, budgetCards).Budget; b != 80 {
			t.Errorf("cards budget %d, want 10 %% of 800", b)
		}
		// the 150-token card does not fit in 80; history 240 + 80 unused.
		if b := section(t, r, budgetHistory).Budget; b != 320 {
			t.Errorf("history budget %d, want 240 + 80", b)
		}
	})
}

func TestWindowForShare(t *testing.T) {
	for _, tt := range []struct{ share, want int }{
		{0, 4}, {100, 4}, {499, 4}, {500, 4}, {501, 5}, {599, 5}, {900, 9}, {999, 9}, {2000, 20},
	} {
		if got := WindowForShare(tt.share); got != tt.want {
			t.Errorf("WindowForShare(%d) = %d, want %d", tt.share, got, tt.want)
		}
	}
}

func TestScanWindow(t *testing.T) {
	c := counter(t)
	// Required 100 tokens; cards share = floor(0.25 × (available − 100)).
	pre := []Piece{req(budgetSystemPresets, "rules", 60), msg(0, 40, true), msg(1, 5000, false)}
	for _, tt := range []struct{ available, share, want int }{
		{2099, 499, 4}, // R 1999 → 499
		{2100, 500, 4}, // R 2000 → 500
		{3700, 900, 9}, // R 3600 → 900
	} {
		s := settings(tt.available)
		if got := floorShare(s.Shares.Cards, s.Available()-100); got != tt.share {
			t.Fatalf("test setup: share %d, want %d", got, tt.share)
		}
		if got := ScanWindow(pre, s, c); got != tt.want {
			t.Errorf("available %d (cards share %d): window %d, want %d", tt.available, tt.share, got, tt.want)
		}
	}
	// Over the cap, Required counts at the cap, not its full size.
	big := []Piece{req(budgetSystemPresets, "rules", 100000), msg(0, 1, true)}
	s := settings(10000) // cap 7000 → R 3000 → cards 750 → 7
	if got := ScanWindow(big, s, c); got != 7 {
		t.Errorf("over the cap: window %d, want 7", got)
	}
}

func TestCardRanking(t *testing.T) {
	c := counter(t)
	e := func(pos int, constant bool) *schema.Entry { return &schema.Entry{Position: pos, AlwaysSend: constant} }
	pieces := []Piece{
		card("rec-b", 10, Activated{Entry: e(0, false), Level: 2, ParentLists: [][]string{{"old"}}, LastMessage: -1}),
		card("rec-a", 10, Activated{Entry: e(5, false), Level: 1, ParentLists: [][]string{{"new"}}, LastMessage: -1}),
		card("old", 10, Activated{Entry: e(0, false), LastMessage: 1, Hits: 9}),
		card("new", 10, Activated{Entry: e(9, false), LastMessage: 3, Hits: 1}),
		card("new-hits", 10, Activated{Entry: e(9, false), LastMessage: 3, Hits: 2}),
		card("pos-b", 10, Activated{Entry: e(1, false), LastMessage: 2, Hits: 1}),
		card("pos-a", 10, Activated{Entry: e(1, false), LastMessage: 2, Hits: 1}),
		card("first", 10, Activated{Entry: e(0, false), LastMessage: 2, Hits: 1}),
		card("const-b", 10, Activated{Entry: e(1, true), LastMessage: -1}),
		card("const-a", 10, Activated{Entry: e(1, true), LastMessage: -1}),
		card("const-0", 10, Activated{Entry: e(0, true), LastMessage: -1}),
	}
	b := newBudgeter(pieces, settings(1000), c, BudgetOptions{})
	var got []string
	idx := rankCards(pieces, b.bySection[budgetCards])
	for _, i := range idx {
		got = append(got, pieces[i].Key)
	}
	want := []string{"const-0", "const-a", "const-b", "new-hits", "new", "first", "pos-a", "pos-b", "old", "rec-a", "rec-b"}
	if !slices.Equal(got, want) {
		t.Errorf("rank\n got %v\nwant %v", got, want)
	}
}

func TestCardsGreedySkipAndOrphans(t *testing.T) {
	c := counter(t)
	e := &schema.Entry{}
	pieces := []Piece{
		card("a", 50, Activated{Entry: e, LastMessage: 4}),                                               // in (50)
		card("huge", 100, Activated{Entry: e, LastMessage: 3}),                                           // skipped: 150 > 100
		card("b", 40, Activated{Entry: e, LastMessage: 2}),                                               // in (90)
		card("c", 20, Activated{Entry: e, LastMessage: 1}),                                               // skipped: 110 > 100
		card("d", 10, Activated{Entry: e, LastMessage: 0}),                                               // in (100)
		card("child-of-huge", 1, Activated{Entry: e, Level: 1, ParentLists: [][]string{{"huge"}}}),       // orphan
		card("child-of-a", 0, Activated{Entry: e, Level: 1, ParentLists: [][]string{{"huge", "a"}}}),     // one parent in
		card("grandchild", 0, Activated{Entry: e, Level: 2, ParentLists: [][]string{{"child-of-huge"}}}), // orphan of orphan
		msg(0, 600, true),
	}
	// available 1000, Required 600 → R 400 → cards 100.
	kept, r := Budget(pieces, settings(1000), c)
	want := []string{"a", "b", "d", "child-of-a", "message:0"}
	if got := keys(kept); !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	cards := section(t, r, budgetCards)
	if !slices.Equal(cards.Dropped, []string{"huge", "c", "child-of-huge", "grandchild"}) {
		t.Errorf("dropped %v", cards.Dropped)
	}
	var why []string
	for _, n := range cards.Notes {
		why = append(why, n.Key+": "+n.Why)
	}
	if !strings.Contains(strings.Join(why, "\n"), "child-of-huge: activated only through entries that were left out") {
		t.Errorf("orphan reason missing:\n%s", strings.Join(why, "\n"))
	}
}

func TestHistoryContiguous(t *testing.T) {
	c := counter(t)
	// R = 1000 - 100 = 900; no memory → history 75 % = 675 (+ 225 unused cards) = 900.
	pieces := []Piece{msg(0, 10, false), msg(1, 10, false), msg(2, 895, false), msg(3, 880, false), msg(4, 100, true)}
	kept, r := Budget(pieces, settings(1000), c)
	// message:3 (880) fits; message:2 (895) does not; message:0 and :1 would
	// fit but are older than a message left out.
	if got := keys(kept); !slices.Equal(got, []string{"message:3", "message:4"}) {
		t.Errorf("kept %v", got)
	}
	h := section(t, r, budgetHistory)
	if !slices.Equal(h.Dropped, []string{"message:0", "message:1", "message:2"}) {
		t.Errorf("dropped %v", h.Dropped)
	}
}

func TestMemoryRelevance(t *testing.T) {
	c := counter(t)
	last := Piece{Step: 10, Section: budgetLastAction, Key: "message:1", Content: "I ask Seraphina about the Silver Order knights.", Message: 1}
	header := Piece{Step: 9, Content: "[Memory]", Message: -1} // 2 tokens
	pieces := []Piece{
		header,
		mem(0, 20, "Ari owes Old Maren three silver."),             // silver: 1
		mem(1, 20, "Seraphina distrusts the Silver Order."),        // seraphina silver order: 3
		mem(2, 20, "The bridge north of Millbrook is washed out."), // 0
		mem(3, 3, "Knights of the order came last week."),          // knights order: 2
		last,
	}
	// Budget: available 1000, R = 1000 - 12 = 988; cards 247 unused; make
	// memory small with shares.
	s := settings(1000)
	s.Shares = schema.Shares{Cards: 0, History: 0.96, Memory: 0}
	// memory gets R − history used (0) − cards (0) = 988: everything fits.
	kept, _ := Budget(pieces, s, c)
	if len(kept) != len(pieces) {
		t.Fatalf("kept %v", keys(kept))
	}
	// Now only room for the header + ~34 tokens: the most relevant item
	// (memory:1, 29 tokens) then memory:3 (12) cannot both fit; greedy skips.
	m1 := c.Count(pieces[2].Content)
	m3 := c.Count(pieces[4].Content)
	room := 2 + m1 + m3 - 1
	s.ContextTokens = c.Count(last.Content) + room
	s.Shares = schema.Shares{}
	kept, r := Budget(pieces, s, c)
	want := []string{"", "memory:1", "message:1"}
	if got := keys(kept); !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v (memory:3 does not fit after memory:1; memory:0 is larger still)", got, want)
	}
	if d := section(t, r, budgetMemory).Dropped; !slices.Equal(d, []string{"memory:0", "memory:2", "memory:3"}) {
		t.Errorf("dropped %v", d)
	}
	// No room even for the header and one item: the header goes too.
	s.ContextTokens = c.Count(last.Content) + 3
	kept, r = Budget(pieces, s, c)
	if got := keys(kept); !slices.Equal(got, []string{"message:1"}) {
		t.Errorf("kept %v, want the last action alone", got)
	}
	if d := section(t, r, budgetMemory).Dropped; !slices.Equal(d, []string{budgetMemory}) {
		t.Errorf("dropped %v, want the section", d)
	}
}

func TestWordSet(t *testing.T) {
	got := wordSet("The Silver-Order's knights, 鴨川の旅館!")
	for _, w := range []string{"silver", "order", "knights", "鴨川", "川の", "旅館"} {
		if !got[w] {
			t.Errorf("missing %q in %v", w, got)
		}
	}
	if got["the"] || got["s"] {
		t.Errorf("stop words kept: %v", got)
	}
}

func TestReportJSONContract(t *testing.T) {
	c := counter(t)
	_, r := Budget([]Piece{msg(0, 10, true)}, schema.DefaultSettings(), c)
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var generic map[string]any
	if err := json.Unmarshal(data, &generic); err != nil {
		t.Fatal(err)
	}
	var topKeys []string
	for k := range generic {
		topKeys = append(topKeys, k)
	}
	slices.Sort(topKeys)
	if want := []string{"available", "contextTokens", "requiredCap", "sections", "tokenizer", "total"}; !slices.Equal(topKeys, want) {
		t.Errorf("report keys %v, want %v", topKeys, want)
	}
	if !strings.HasPrefix(string(data), `{"tokenizer":"chars4","contextTokens":8192,"available":7168,"requiredCap":5017,"total":10,"sections":[{"name":"last-action","class":"required","tokens":10,"budget":5017,"cut":false,"dropped":[]}`) {
		t.Errorf("report JSON:\n%s", data)
	}
	var names []string
	for _, s := range r.Sections {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, BudgetSections()) {
		t.Errorf("sections %v", names)
	}
	if strings.Contains(string(data), "null") {
		t.Errorf("null in report JSON: %s", data)
	}
}

// TestBudgetFixtureCounts pins the report for pieces made of the Eldoria
// fixture's texts, counted with the real default tokenizer.
func TestBudgetFixtureCounts(t *testing.T) {
	o, err := tokenize.Get(tokenize.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join("..", "fixtures", "eldoria", p))
		if err != nil {
			t.Fatal(err) // in-repo fixtures are never optional
		}
		return string(b)
	}
	pieces := []Piece{
		{Section: budgetSystemPresets, Key: "world", Content: read("book/entries/world.yaml"), Message: -1},
		{Section: budgetExamples, Key: "examples", Content: read("book/entries/examples.yaml"), Message: -1},
		{Section: budgetCards, Key: "places", Content: read("book/entries/places.yaml"), Card: &Activated{Entry: &schema.Entry{ID: "places"}}, Message: -1},
		{Section: budgetLastAction, Key: "message:0", Content: read("transcript.yaml"), Message: 0},
		{Section: budgetPostHistory, Key: "post", Content: read("book/entries/post.yaml"), Message: -1},
	}
	_, r := Budget(pieces, schema.DefaultSettings(), o)
	got := map[string]int{}
	for _, s := range r.Sections {
		got[s.Name] = s.Tokens
	}
	// The same numbers as tokenize/testdata/fixtures.golden.
	want := map[string]int{budgetSystemPresets: 128, budgetExamples: 110, budgetCards: 484, budgetLastAction: 281, budgetPostHistory: 168}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d tokens, want %d", k, got[k], v)
		}
	}
	if r.Total != 128+110+484+281+168 {
		t.Errorf("total %d", r.Total)
	}
}

func TestBudgetEmptyAndZero(t *testing.T) {
	c := counter(t)
	kept, r := Budget(nil, schema.Settings{}, c)
	if len(kept) != 0 || len(r.Sections) != 10 || r.Total != 0 {
		t.Errorf("empty budget: %v %+v", kept, r)
	}
	kept, _ = Budget([]Piece{msg(0, 5, true), req(budgetSummary, "summary", 5)}, schema.Settings{}, c)
	if got := keys(kept); !slices.Equal(got, []string{"message:0"}) {
		t.Errorf("zero context: kept %v", got)
	}
}

// BenchmarkBudget budgets n activated cards and n/5 messages; time should
// grow as n log n (compare the sizes).
func BenchmarkBudget(b *testing.B) {
	c := counter(b)
	for _, n := range []int{1000, 10000} {
		var pieces []Piece
		for i := range n {
			pieces = append(pieces, card(fmt.Sprintf("card-%05d", i), 20+i%50, Activated{Entry: &schema.Entry{Position: i % 7}, LastMessage: i % 20, Hits: i % 3}))
		}
		for i := range n / 5 {
			pieces = append(pieces, msg(i, 30+i%40, i == n/5-1))
		}
		s := settings(128000)
		b.Run(fmt.Sprintf("cards=%d", n), func(b *testing.B) {
			for b.Loop() {
				Budget(pieces, s, c)
			}
		})
	}
}

// TestRequiredCutRealTokenizer cuts a Japanese and an English piece with the
// real tokenizer: the kept text is a prefix, valid UTF-8, within the room left.
func TestRequiredCutRealTokenizer(t *testing.T) {
	o, err := tokenize.Get(tokenize.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		strings.Repeat("千代は旅館「桜の宿」の女将。穏やかで、客の秘密を決して漏らさない。", 20),
		strings.Repeat("Seraphina guards the Sleeping Stag and distrusts the Silver Order. ", 20),
	} {
		last := Piece{Section: budgetLastAction, Key: "message:0", Content: "hello world", Message: 0} // 2 tokens
		pieces := []Piece{{Section: budgetSystemPresets, Key: "rules", Content: text, Message: -1}, last}
		s := settings(100) // cap 70: 68 tokens left for rules
		kept, r := Budget(pieces, s, o)
		if len(kept) != 2 || !kept[0].Cut {
			t.Fatalf("kept %v", keys(kept))
		}
		cut := kept[0].Content
		if !strings.HasPrefix(text, cut) || !utf8.ValidString(cut) || o.Count(cut) > 68 || o.Count(cut) < 60 {
			t.Errorf("cut %q: %d tokens, want a valid prefix of at most 68 (and not far below)", cut, o.Count(cut))
		}
		if r.RequiredUsed > r.RequiredCap {
			t.Errorf("Required %d over the cap %d", r.RequiredUsed, r.RequiredCap)
		}
	}
}

// FuzzBudget throws odd settings and piece mixes at Budget: it must not
// panic, keep Required within the cap unless the always-full items alone pass
// it, and never keep more Dynamic tokens than R.
func FuzzBudget(f *testing.F) {
	f.Add(1000, 0, 0.7, 0.25, 0.5, 0.25, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add(0, 100, 1.5, -1.0, 2.0, 0.0, []byte{0, 0, 9, 9})
	f.Fuzz(func(t *testing.T, ctx, reserve int, capShare, cards, hist, memShare float64, plan []byte) {
		if len(plan) > 200 {
			t.Skip()
		}
		c := counter(t)
		s := schema.Settings{ContextTokens: ctx, ResponseReserve: reserve, RequiredCap: capShare,
			Shares: schema.Shares{Cards: cards, History: hist, Memory: memShare}}
		sections := append(BudgetSections(), "")
		var pieces []Piece
		for i, b := range plan {
			sec := sections[int(b)%len(sections)]
			p := Piece{Section: sec, Key: fmt.Sprintf("k%d", i), Content: tok("x", int(b)), Message: i, Step: int(b) % 14}
			if sec == budgetCards {
				p.Card = &Activated{Entry: &schema.Entry{ID: p.Key}, Level: int(b) % 3, ParentLists: [][]string{{fmt.Sprintf("k%d", int(b)%(i+1))}}}
			}
			pieces = append(pieces, p)
		}
		kept, r := Budget(pieces, s, c)
		if len(kept) > len(pieces) || len(r.Sections) != 10 {
			t.Fatalf("kept %d of %d, %d sections", len(kept), len(pieces), len(r.Sections))
		}
		dyn := 0
		for _, sec := range r.Sections {
			if sec.Class == "dynamic" {
				dyn += sec.Tokens
			}
		}
		if dyn > r.Remainder {
			t.Fatalf("Dynamic holds %d tokens, R is %d", dyn, r.Remainder)
		}
	})
}

// TestBudgetSharesOverOne: shares that add up to more than 1 (each valid on
// its own) never let Dynamic hold more than R.
func TestBudgetSharesOverOne(t *testing.T) {
	c := counter(t)
	s := settings(1000)
	s.Shares = schema.Shares{Cards: 0.5, History: 0.6, Memory: 0.4}
	var pieces []Piece
	for i := range 40 {
		pieces = append(pieces, Piece{Section: budgetHistory, Key: fmt.Sprintf("message:%d", i), Content: tok("x", 20), Message: i})
	}
	pieces = append(pieces, Piece{Section: budgetCards, Key: "card", Content: tok("x", 30),
		Card: &Activated{Entry: &schema.Entry{ID: "card"}, LastMessage: 39}})
	_, r := Budget(pieces, s, c)
	dyn := 0
	for _, sec := range r.Sections {
		if sec.Class == "dynamic" {
			dyn += sec.Tokens
		}
	}
	if dyn > r.Remainder {
		t.Errorf("Dynamic holds %d tokens, R is %d", dyn, r.Remainder)
	}
	if h := r.Section(budgetHistory); h.Budget > r.Remainder-r.Section(budgetCards).Tokens {
		t.Errorf("history budget %d is more than cards left of R (%d − %d)", h.Budget, r.Remainder, r.Section(budgetCards).Tokens)
	}
}

// TestCardParentInAnotherSection: a card activated by the content of an entry
// of another section (kept by Required, decided before the cards) stays in;
// it goes only when that parent was left out.
func TestCardParentInAnotherSection(t *testing.T) {
	c := counter(t)
	e := &schema.Entry{}
	for _, tc := range []struct {
		name       string
		lastAction int // tokens of the newest message, always sent
		kept       bool
	}{{"parent kept", 1, true}, {"parent left out: the last action fills the cap", 700, false}} {
		pieces := []Piece{
			req(budgetSystemPresets, "gate", 40),
			card("ledger", 5, Activated{Entry: e, Level: 1, ParentLists: [][]string{{"gate"}}}),
			msg(0, tc.lastAction, true),
		}
		kept, r := Budget(pieces, settings(1000), c)
		if got := slices.Contains(keys(kept), "ledger"); got != tc.kept {
			t.Errorf("%s: ledger kept %v, want %v (kept %v)", tc.name, got, tc.kept, keys(kept))
		}
		if !tc.kept {
			if slices.Contains(keys(kept), "gate") {
				t.Fatalf("%s: the parent is in", tc.name)
			}
			if n := r.Note(SecCards, "ledger", false); n == nil || n.Why != "activated only through entries that were left out" {
				t.Errorf("%s: ledger's note %+v", tc.name, n)
			}
		}
	}
}
