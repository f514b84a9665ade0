package lint

import (
	"math/rand/v2"
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
