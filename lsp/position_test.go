package lsp

import (
	"strings"
	"testing"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

func TestUTF16Columns(t *testing.T) {
	for _, c := range []struct {
		name string
		line string
		col  int    // lore's rune column
		u16  uint32 // LSP's column
	}{
		{"ascii", "keywords: [tavern]", 12, 11},
		{"cjk", "content: 桜の木の下で", 14, 13},
		{"emoji is a surrogate pair", "name: 🐉 dragon", 9, 9},
		{"after two emoji", "🐉🐉x", 3, 4},
		{"combining mark is its own unit", "cafe\u0301 bar", 7, 6},
		{"past the end", "ab", 9, 2},
		{"column 1", "🐉", 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := utf16Col(c.line, c.col); got != c.u16 {
				t.Errorf("utf16Col(%q, %d) = %d, want %d", c.line, c.col, got, c.u16)
			}
			if c.name == "past the end" {
				return
			}
			if got := runeCol(c.line, c.u16); got != c.col {
				t.Errorf("runeCol(%q, %d) = %d, want %d", c.line, c.u16, got, c.col)
			}
		})
	}
	// Inside a surrogate pair: the emoji's own column.
	if got := runeCol("a🐉b", 2); got != 2 {
		t.Errorf("runeCol inside a pair = %d, want 2", got)
	}
}

func TestTextPositions(t *testing.T) {
	tx := newText([]byte("id: 桜\r\ncontent: 🐉 é\nlast"))
	if got := tx.line(0); got != "id: 桜" {
		t.Errorf("line 0 = %q (the CR is not part of it)", got)
	}
	if got := tx.toLSP(2, 12); got != (protocol.Position{Line: 1, Character: 12}) {
		t.Errorf("toLSP = %+v", got)
	}
	if l, c := tx.fromLSP(protocol.Position{Line: 1, Character: 12}); l != 2 || c != 12 {
		t.Errorf("fromLSP = %d:%d", l, c)
	}
	if off := tx.offset(protocol.Position{Line: 1, Character: 11}); tx.s[off:off+3] != " é" {
		t.Errorf("offset points at %q", tx.s[off:])
	}
	if got := tx.end(); got != (protocol.Position{Line: 2, Character: 4}) {
		t.Errorf("end = %+v", got)
	}
}

func TestSpan(t *testing.T) {
	for _, c := range []struct {
		line   string
		col    int
		quoted []string
		want   int
	}{
		{`    section: chathistory`, 14, nil, 11},
		{`  keywords: ["tav\"ern", x]`, 14, nil, 10},
		{`  keywords: ['it''s', x]`, 14, nil, 7},
		{`The tavern is old.`, 5, []string{"tavern"}, 6},
		{`桜の木の下で会う。`, 3, []string{"木"}, 1},
		{`桜の木の下で会う。`, 1, nil, 8},
		{`x: ,`, 4, nil, 1},
	} {
		if got := span(c.line, c.col, c.quoted); got != c.want {
			t.Errorf("span(%q, %d) = %d, want %d", c.line, c.col, got, c.want)
		}
	}
}

// FuzzPositions: a rune column goes to UTF-16 and back unchanged, and the
// one edit between any two texts, applied through LSP positions, turns the
// first into the second.
func FuzzPositions(f *testing.F) {
	f.Add("id: 桜\ncontent: 🐉 é", "id: 桜\ncontent: 🐉🐉 é!", 3)
	f.Add("", "a", 1)
	f.Add("cafe\u0301\r\nx", "cafe\r\nx", 5)
	f.Fuzz(func(t *testing.T, a, b string, col int) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return
		}
		line, _, _ := strings.Cut(a, "\n")
		n := utf8.RuneCountInString(line)
		if col >= 1 && col <= n+1 {
			if got := runeCol(line, utf16Col(line, col)); got != col {
				t.Fatalf("runeCol(utf16Col(%q, %d)) = %d", line, col, got)
			}
		}
		tx := newText([]byte(a))
		e, changed := tx.edit(b)
		if !changed {
			if a != b {
				t.Fatalf("no edit from %q to %q", a, b)
			}
			return
		}
		s, x := tx.offset(e.Range.Start), tx.offset(e.Range.End)
		if got := a[:s] + e.NewText + a[x:]; got != b {
			t.Fatalf("edit %+v of %q gives %q, want %q", e, a, got, b)
		}
	})
}
