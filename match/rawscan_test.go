package match

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRawScanMatchesFolded: in every fold, scanning a text as it is (the
// automaton reading ASCII letters in either case) finds what scanning its
// folded copy finds, on texts that take the raw path (ASCII, CJK, é) and
// texts that do not (ß, İ, Σ, full-width letters), whole-word or not.
func TestRawScanMatchesFolded(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	pieces := []string{"a", "b", "A", "B", "z", "Z", " ", "-", "1", "中", "の", "é", "É", "ß", "İ", "Σ", "ｶ", "Ａ", "\u0301"}
	// kind 0 is ASCII, 1 adds CJK, 2 é and É, 3 everything.
	word := func(n, kind int) string {
		k := []int{9, 11, 13, len(pieces)}[kind]
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.IntN(k)])
		}
		return b.String()
	}
	for _, fold := range []Fold{FoldUnicode, FoldJSLower, FoldJSIgnoreCase, FoldNone} {
		raws := 0
		for round := range 200 {
			var ps []Pattern
			for range 1 + r.IntN(30) {
				ps = append(ps, Pattern{Text: word(1+r.IntN(4), r.IntN(4)), WholeWords: r.IntN(2) == 0})
			}
			o := Options{Fold: fold}
			fast, _ := CompileWith(ps, o)
			slow, _ := CompileWith(ps, o)
			if slow.keywordAutomaton() == nil {
				continue
			}
			slow.raw = false
			text := word(r.IntN(120), round%4)
			var got, want []Occurrence
			fast.Occurrences(text, func(o Occurrence) { got = append(got, o) })
			if fast.scansRaw(text) {
				raws++
			}
			slow.Occurrences(text, func(o Occurrence) { want = append(want, o) })
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("fold %d, patterns %v, text %q:\n got %v\nwant %v", fold, ps, text, got, want)
			}
		}
		if raws < 30 {
			t.Errorf("fold %d: only %d of 200 texts took the raw path", fold, raws)
		}
	}
}

// TestFoldASCIIIsNormalize: folding an ASCII keyword straight into the
// matcher's chunk gives the bytes normalize gives, in every fold.
func TestFoldASCIIIsNormalize(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 17))
	for _, fold := range []Fold{FoldUnicode, FoldJSLower, FoldJSIgnoreCase, FoldNone} {
		m, _ := CompileWith(nil, Options{Fold: fold}) // for its normalize
		for range 500 {
			b := make([]byte, r.IntN(12))
			for i := range b {
				b[i] = byte(r.IntN(128))
			}
			s := string(b)
			if got, want := string(foldASCII(nil, s, fold)), string(m.normalize(s).text); got != want {
				t.Fatalf("fold %d, %q: %q, normalize gives %q", fold, s, got, want)
			}
		}
	}
}
