package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
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
