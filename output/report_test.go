package output

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/golden"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// The report's pieces are made of chars4 text, so token arithmetic is exact:
// tok(tag, n) is n tokens.
func tok(tag string, n int) string { return strings.Repeat(fmt.Sprintf("%-4.4s", tag), n) }

func req(section, key string, n int) render.Piece {
	return render.Piece{Section: section, Key: key, Content: tok(key, n), Message: -1}
}

func msg(i, n int, last bool) render.Piece {
	sec := render.SecHistory
	if last {
		sec = render.SecLastAction
	}
	k := fmt.Sprintf("message:%d", i)
	return render.Piece{Step: 10, Section: sec, Key: k, Content: tok(fmt.Sprintf("m%d", i), n), Message: i}
}

func card(id string, n int, a render.Activated) render.Piece {
	a.Entry = &schema.Entry{ID: id, Section: schema.SectionChatHistory}
	return render.Piece{Step: 6, Section: render.SecCards, Key: id, Content: tok(id, n), Card: &a, Message: -1}
}

func mem(i, n int, text string) render.Piece {
	return render.Piece{Step: 9, Section: render.SecMemory, Key: fmt.Sprintf("memory:%d", i), Content: text + " " + tok("pad", n), Message: -1}
}

func chars4(t testing.TB) tokenize.Counter {
	t.Helper()
	c, err := tokenize.Get(tokenize.Chars4)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReportText is a golden test of the text table (go test -update).
func TestReportText(t *testing.T) {
	c := chars4(t)
	pieces := []render.Piece{
		{Section: render.SecSystemPresets, Key: "preset:fiction-mode", Content: tok("fict", 300), Message: -1},
		req(render.SecPlotEssentials, "plot-essentials", 900),
		{Step: 4, Content: "[Example Chat]", Message: -1},
		req(render.SecExamples, "seraphina-examples", 200),
		card("tavern", 300, render.Activated{Entry: &schema.Entry{}, LastMessage: 9, Hits: 2}),
		card("silver-order", 900, render.Activated{Entry: &schema.Entry{}, LastMessage: 8}),
		{Step: 7, Content: "[Start a new Chat]", Message: -1},
		req(render.SecSummary, "summary", 100),
		{Step: 9, Content: "[Memory]", Message: -1},
		mem(0, 30, "Ari owes Maren"), mem(1, 30, "bridge"),
	}
	for i := range 9 {
		pieces = append(pieces, msg(i, 150, false))
	}
	pieces = append(pieces, msg(9, 80, true), req(render.SecFrontMemory, "front-memory", 40), req(render.SecPostHistory, "author-note", 150))
	s := schema.DefaultSettings()
	s.ContextTokens = 4096
	_, r := render.Budget(pieces, s, c)
	var buf bytes.Buffer
	if err := WriteReport(&buf, r, false); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "budget", "report.txt"), buf.Bytes())
	var col bytes.Buffer
	_ = WriteReport(&col, r, true)
	if !strings.Contains(col.String(), "\x1b[") {
		t.Error("color=true printed no colour")
	}
}

func TestGroupNotes(t *testing.T) {
	notes := []render.Note{
		{Key: "ex", Tokens: 10, Why: "over"}, {Key: "ex", Tokens: 5, Why: "over"},
		{Key: "a", Tokens: 3, Why: "no room"}, {Key: "b", Tokens: 4, Why: "no room"},
		{Key: "m:0", Tokens: 1, Why: "old"}, {Key: "m:1", Tokens: 1, Why: "old"}, {Key: "m:2", Tokens: 1, Why: "old"}, {Key: "m:3", Tokens: 1, Why: "old"},
		{Key: "big", Tokens: 9, Kept: 4, Cut: true, Why: "cut"},
	}
	want := []string{
		"ex (2 pieces, 15 tokens) left out: over",
		"a, b (2 pieces, 7 tokens) left out: no room",
		"m:0 … m:3 (4 pieces, 4 tokens) left out: old",
		"big cut 9 → 4 tokens: cut",
	}
	if got := groupNotes(notes); !slices.Equal(got, want) {
		t.Errorf("groupNotes\n got %q\nwant %q", got, want)
	}
}

// TestReportWithoutRequired: an engine with one lorebook budget (no Required
// part) gets no Required/Dynamic lines, which would describe lore's budget.
func TestReportWithoutRequired(t *testing.T) {
	r := &render.Report{Tokenizer: "chars4", ContextTokens: 100, Available: 100, Total: 10,
		Sections: []render.SectionReport{{Name: "lorebook", Class: "dynamic", Tokens: 10, Budget: 50, Dropped: []string{}}}}
	var b bytes.Buffer
	if err := WriteReport(&b, r, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Required") || strings.Contains(b.String(), "Dynamic R") {
		t.Errorf("lore's Required lines for a report without Required:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "lorebook") {
		t.Errorf("the lorebook section is missing:\n%s", b.String())
	}
}

// TestReportColumnsStayPut: ids longer than the columns' usual width, or
// written in wide characters, widen their column rather than push the
// numbers after them out of line.
func TestReportColumnsStayPut(t *testing.T) {
	long := "the-very-long-identifier-of-an-imported-entry"
	r := &render.Report{Tokenizer: "chars4", ContextTokens: 8192, Reserve: 1024, Available: 7168,
		Largest: []render.EntrySize{{Key: long, Section: render.SecCards, Tokens: 5},
			{Key: "桜の木-sakura", Section: render.SecCards, Tokens: 120}, {Key: "a", Section: render.SecHistory, Tokens: 1234}}}
	var b bytes.Buffer
	if err := WriteReport(&b, r, false); err != nil {
		t.Fatal(err)
	}
	_, largest, _ := strings.Cut(b.String(), "Largest entries\n")
	ends := map[int]bool{}
	for _, line := range strings.Split(strings.Trim(largest, "\n"), "\n") {
		f := strings.Fields(line)
		// the tokens column ends at the same display column on every row
		i := strings.LastIndex(line, f[2])
		ends[Width(line[:i])+len(f[2])] = true
	}
	if len(ends) != 1 {
		t.Errorf("the tokens column moves %v:\n%s", ends, largest)
	}
	s := &render.Sizing{Report: &render.Report{Tokenizer: "chars4", Available: 7168}, CardsShare: 1000,
		Cards: []render.CardSize{{Entry: &schema.Entry{ID: long}, Tokens: 7}, {Entry: &schema.Entry{ID: "b"}, Tokens: 12345}}}
	b.Reset()
	if err := WriteSizing(&b, s, false); err != nil {
		t.Fatal(err)
	}
	_, cards, _ := strings.Cut(b.String(), "messages\n")
	ends = map[int]bool{}
	for _, line := range strings.Split(strings.Trim(cards, "\n"), "\n") {
		f := strings.Fields(line)
		ends[strings.Index(line, f[1])+len(f[1])] = true
	}
	if len(ends) != 1 {
		t.Errorf("the cards' tokens column moves:\n%s", cards)
	}
}
