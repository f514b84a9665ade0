package render

import (
	"slices"
	"testing"
)

// Edges of the budget arithmetic that a change of one operator or constant
// would move (scripts/mutate lists the changes these tests catch).

// TestRequiredExactFit: a piece that needs exactly the tokens left under the
// cap is kept whole, not reported as cut; the next one is left out.
func TestRequiredExactFit(t *testing.T) {
	c := counter(t)
	// cap 700; the last action (600) is always in, leaving exactly 100 for
	// post-history's note; plot-essentials (50) finds nothing left.
	pieces := []Piece{req(budgetPostHistory, "note", 100), req(budgetPlotEssentials, "plot", 50), msg(0, 600, true)}
	kept, r := Budget(pieces, settings(1000), c)
	if got := keys(kept); !slices.Equal(got, []string{"note", "message:0"}) {
		t.Errorf("kept %v", got)
	}
	for _, p := range kept {
		if p.Cut {
			t.Errorf("%s marked cut though it fits exactly", keyOf(p))
		}
	}
	if s := section(t, r, budgetPostHistory); s.Cut || s.Tokens != 100 {
		t.Errorf("post-history %+v: want 100 tokens, whole", s)
	}
	if s := section(t, r, budgetPlotEssentials); !slices.Equal(s.Dropped, []string{budgetPlotEssentials}) {
		t.Errorf("plot-essentials %+v: want it left out", s)
	}
}

// TestOrphanExampleMarker: an [Example Chat] marker that fits under the cap
// while none of its examples does is left out with them, and its tokens are
// given back.
func TestOrphanExampleMarker(t *testing.T) {
	c := counter(t)
	marker := func() Piece { return Piece{Step: 4, Content: "[Example Chat]", Message: -1} } // 4 tokens
	ex := func(k string, n int) Piece { p := req(budgetExamples, k, n); p.Step = 4; return p }
	pieces := []Piece{marker(), ex("ex-a", 20), marker(), ex("ex-b", 20), msg(0, 600, true)}
	s := settings(1000)
	s.RequiredCap = 0.628 // cap 628 = 600 + 4 + 20 + 4: the second marker fits exactly, ex-b does not
	kept, r := Budget(pieces, s, c)
	if got, want := keys(kept), []string{"", "ex-a", "message:0"}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v (the second marker goes with ex-b)", got, want)
	}
	if r.RequiredUsed != 624 {
		t.Errorf("Required used %d, want 624 (the orphan marker's 4 tokens given back)", r.RequiredUsed)
	}
}

// TestFloorShare: shares written in decimal floor to the number a person
// computes (0.29 × 100 is 28.999… in floating point, and 29 on paper).
func TestFloorShare(t *testing.T) {
	for _, tc := range []struct {
		share float64
		n     int
		want  int
	}{
		{0.29, 100, 29}, {0.57, 100, 57}, {0.7, 1000, 700}, {0.1, 30, 3}, {0.15, 20, 3},
		{0.1, 3, 0}, {1, 7, 7}, {1.5, 7, 7}, {0, 100, 0}, {0.5, 0, 0}, {-0.5, 10, 0},
	} {
		if got := floorShare(tc.share, tc.n); got != tc.want {
			t.Errorf("floorShare(%v, %d) = %d, want %d", tc.share, tc.n, got, tc.want)
		}
	}
	s := settings(100)
	s.RequiredCap = 0.29
	if got := RequiredCapTokens(s); got != 29 {
		t.Errorf("Required cap of 0.29 × 100 = %d, want 29", got)
	}
}
