package schema

import (
	"slices"
	"testing"
	"unsafe"
)

// TestPackKeywords: packing keeps every keyword's text and position, puts
// the texts in one string, and leaves each list its own: appending to one
// entry's keywords does not write over the next entry's.
func TestPackKeywords(t *testing.T) {
	kw := func(texts ...string) []Keyword {
		var out []Keyword
		for i, s := range texts {
			out = append(out, Keyword{Text: s, Pos: Pos{File: "b.yaml", Line: i + 1, Col: 3}})
		}
		return out
	}
	entries := []*Entry{
		{ID: "a", Keywords: kw("tavern", "inn"), SecondaryKeywords: kw("ale")},
		{ID: "b"},
		{ID: "c", Keywords: kw("霧の谷", ""), SecondaryKeywords: nil},
		{ID: "d", Keywords: kw("/dragons?/i")},
	}
	want := make([][2][]Keyword, len(entries))
	for i, e := range entries {
		want[i] = [2][]Keyword{slices.Clone(e.Keywords), slices.Clone(e.SecondaryKeywords)}
	}
	PackKeywords(entries)
	for i, e := range entries {
		if !slices.Equal(e.Keywords, want[i][0]) || !slices.Equal(e.SecondaryKeywords, want[i][1]) {
			t.Fatalf("entry %s: %v %v, want %v", e.ID, e.Keywords, e.SecondaryKeywords, want[i])
		}
	}
	// One string: "inn" starts where "tavern" ends, "ale" where "inn" does.
	a := entries[0]
	at := func(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }
	if at(a.Keywords[1].Text) != at(a.Keywords[0].Text)+6 || at(a.SecondaryKeywords[0].Text) != at(a.Keywords[1].Text)+3 {
		t.Error("the texts are not laid out one after another")
	}
	entries[0].Keywords = append(entries[0].Keywords, Keyword{Text: "hearth"})
	if got := entries[0].SecondaryKeywords[0].Text; got != "ale" {
		t.Errorf("appending to a's keywords wrote over its secondary keyword: %q", got)
	}
	if entries[1].Keywords != nil || entries[2].SecondaryKeywords != nil {
		t.Errorf("empty lists became %v, %v", entries[1].Keywords, entries[2].SecondaryKeywords)
	}
}
