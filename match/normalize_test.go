package match

import (
	"slices"
	"testing"
)

var normalizeSeeds = []string{
	"", "a", "É", "e\u0301", "abc e\u0301 def", "héllo World", "霧の谷 is HERE", "ﬁne ﬂy",
	"㈀ (x)", "A\u0301\u0323b", "ΣΑΣ σας", "x\xffy", "Straße", "ＡＢＣ１２３", "a\u0300",
	"tail e\u0301", "\u0301lead", "İstanbul", "K\u212a",
}

// FuzzNormalizeFastPath: the ASCII fast path gives the same text and the
// same map back to the original as normalising every character.
func FuzzNormalizeFastPath(f *testing.F) {
	for _, s := range normalizeSeeds {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, fold bool) {
		got, want := normalize(s, fold), normalizeRuns(s, fold, false)
		if string(got.text) != string(want.text) {
			t.Fatalf("normalize(%q, %v) = %q, want %q", s, fold, got.text, want.text)
		}
		if got.start == nil { // ASCII: the identity map
			if len(want.text) != len(s) {
				t.Fatalf("normalize(%q): no map, but the text changed length", s)
			}
			return
		}
		if !slices.Equal(got.start, want.start) || !slices.Equal(got.end, want.end) {
			t.Fatalf("normalize(%q, %v) maps %v/%v, want %v/%v", s, fold, got.start, got.end, want.start, want.end)
		}
	})
}
