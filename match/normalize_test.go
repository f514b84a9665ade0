package match

import (
	"slices"
	"testing"
)

var normalizeSeeds = []string{
	"", "a", "É", "e\u0301", "abc e\u0301 def", "héllo World", "霧の谷 is HERE", "ﬁne ﬂy",
	"㈀ (x)", "A\u0301\u0323b", "ΣΑΣ σας", "x\xffy", "Straße", "ＡＢＣ１２３", "a\u0300",
	"tail e\u0301", "\u0301lead", "İstanbul", "K\u212a", "霧の谷", "日本語 TEXT です。", "カ\u3099", "한국어 ok", "a\u3000b",
	"Привет Мир", "ǅemal", "ΌΣΟΣ ς", "Ⅻ Ａ", "Ꭰ ꭰ",
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
		if got.start == nil { // ASCII, or text NFKC leaves alone: the identity map
			if len(want.text) != len(s) {
				t.Fatalf("normalize(%q): no map, but the text changed length", s)
			}
			// Every range of whole characters maps back as the reference
			// maps it (hits are whole characters: keywords are).
			var cuts []int
			for i := range string(want.text) {
				cuts = append(cuts, i)
			}
			cuts = append(cuts, len(want.text))
			for a := range cuts {
				for b := a; b < len(cuts) && b <= a+4; b++ {
					gs, ge := got.original(cuts[a], cuts[b])
					ws, we := want.original(cuts[a], cuts[b])
					if gs != ws || ge != we {
						t.Fatalf("normalize(%q, %v): [%d,%d) maps to [%d,%d), want [%d,%d)", s, fold, cuts[a], cuts[b], gs, ge, ws, we)
					}
				}
			}
			return
		}
		if !slices.Equal(got.start, want.start) || !slices.Equal(got.end, want.end) {
			t.Fatalf("normalize(%q, %v) maps %v/%v, want %v/%v", s, fold, got.start, got.end, want.start, want.end)
		}
	})
}

// TestFastPathTakesSameSizeFolds: text whose letters fold in place (É, Ж, Σ)
// keeps the identity map, so a Latin book with a few accented names costs no
// offset map; folds that change size or need the normaliser do not.
func TestFastPathTakesSameSizeFolds(t *testing.T) {
	for _, c := range []struct {
		in       string
		identity bool
	}{
		{"Élan Keep and 霧の谷", true},
		{"Привет, Мир", true},
		{"ΌΣΟΣ ς", true},
		{"Straße", false},   // ß → ss
		{"İstanbul", false}, // İ → i̇, two characters
		{"e\u0301", false},  // a combining mark
		{"ＡＢＣ", false},      // NFKC changes it
	} {
		n := normalize(c.in, true)
		if got := n.start == nil; got != c.identity {
			t.Errorf("normalize(%q): identity map %v, want %v", c.in, got, c.identity)
		}
		if want := normalizeRuns(c.in, true, false); string(n.text) != string(want.text) {
			t.Errorf("normalize(%q) = %q, want %q", c.in, n.text, want.text)
		}
	}
}
