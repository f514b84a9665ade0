package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lorekit/lore/schema"
)

// TestSingleSpaced: singleSpaced holds exactly for the names strings.Fields
// and a join give back unchanged, over names of letters, spaces, tabs,
// newlines and non-ASCII characters (for which it never holds: Fields knows
// their spaces).
func TestSingleSpaced(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	pieces := []string{"a", "B", " ", " ", "\t", "\n", "é", "\u00a0", "1"}
	for range 5000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		same := strings.Join(strings.Fields(s), " ") == s
		if got := singleSpaced(s); got && !same || !got && same && isASCIIString(s) {
			t.Fatalf("singleSpaced(%q) = %v; Fields gives it back: %v", s, got, same)
		}
	}
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TestFirstInOrder: the selection gives the first n of a sort, for lists
// shorter and longer than n, with values in any order.
func TestFirstInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 15))
	for range 2000 {
		xs := r.Perm(r.IntN(12))
		n := 1 + r.IntN(4)
		got := firstInOrder(xs, n, func(a, b int) bool { return a < b })
		want := slices.Sorted(slices.Values(xs))
		want = want[:min(n, len(want))]
		if !slices.Equal(got, want) {
			t.Fatalf("first %d of %v: %v, want %v", n, xs, got, want)
		}
	}
}

// TestFirstOfSamePairwise: the pairwise comparison of short plain ASCII
// lists finds the same first duplicates as comparing normalised forms, with
// case variants, blanks and padded keywords in the lists; a regular
// expression or a non-ASCII keyword sends a list the normalised way.
func TestFirstOfSamePairwise(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	words := []string{"Tavern", "tavern", "TAVERN", "tavern ", " ", "", "inn", "Inn", "a b", "A B", "k", "K"}
	var buf []int
	found := 0
	for range 2000 {
		kws := make([]schema.Keyword, 2+r.IntN(7))
		for i := range kws {
			kws[i].Text = words[r.IntN(len(words))]
		}
		if !plainASCII(kws) {
			t.Fatalf("%v: not plain ASCII", kws)
		}
		buf = firstOfSame(kws, buf)
		want := sameNormalized(kws, make([]int, len(kws)))
		if !slices.Equal(buf, want) {
			t.Fatalf("%q: pairwise %v, normalised %v", texts(kws), buf, want)
		}
		for _, f := range buf {
			if f >= 0 {
				found++
			}
		}
	}
	if found < 1000 {
		t.Errorf("only %d duplicates in 2,000 lists: the test compares too little", found)
	}
	for _, odd := range []string{"/tavern/i", "Ｔavern", "Kelvin\u212a"} {
		if plainASCII([]schema.Keyword{{Text: "tavern"}, {Text: odd}}) {
			t.Errorf("%q taken as plain ASCII", odd)
		}
	}
	// Normalised, the full-width and Kelvin-sign spellings are the same keyword.
	kws := []schema.Keyword{{Text: "tavern"}, {Text: "ＴＡＶＥＲＮ"}, {Text: "k"}, {Text: "\u212a"}}
	if got := firstOfSame(kws, nil); !slices.Equal(got, []int{-1, 0, -1, 2}) {
		t.Errorf("%q: %v", texts(kws), got)
	}
}

func texts(kws []schema.Keyword) []string {
	out := make([]string, len(kws))
	for i, k := range kws {
		out[i] = k.Text
	}
	return out
}
