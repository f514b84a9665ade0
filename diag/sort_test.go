package diag

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestSortMatchesStableSort holds Sort, which orders indexes, to a stable
// sort of the diagnostics themselves by file, line, column, rule, message
// and severity (Sort's order before it sorted indexes), followed by dropping
// exact duplicates: random findings over few files, lines, columns, rules,
// messages and severities, so that ties at every key and duplicates abound.
func TestSortMatchesStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		n := rng.IntN(60)
		ds := make([]Diagnostic, n)
		for i := range ds {
			ds[i] = Diagnostic{File: fmt.Sprint("f", rng.IntN(3)), Line: rng.IntN(4), Column: rng.IntN(3),
				Severity: Severity(rng.IntN(3)), Rule: fmt.Sprint("r", rng.IntN(2)), Message: fmt.Sprint("m", rng.IntN(3)),
				Entry: fmt.Sprint("e", rng.IntN(2))}
			if rng.IntN(4) == 0 {
				ds[i].Related = &Related{File: "t", Line: rng.IntN(2)}
			}
		}
		want := append([]Diagnostic(nil), ds...)
		sort.SliceStable(want, func(i, j int) bool {
			a, b := want[i], want[j]
			switch {
			case a.File != b.File:
				return a.File < b.File
			case a.Line != b.Line:
				return a.Line < b.Line
			case a.Column != b.Column:
				return a.Column < b.Column
			case a.Rule != b.Rule:
				return a.Rule < b.Rule
			case a.Message != b.Message:
				return a.Message < b.Message
			}
			return a.Severity > b.Severity
		})
		kept := want[:0]
		for i, d := range want {
			if i == 0 || !same(d, want[i-1]) {
				kept = append(kept, d)
			}
		}
		if got := Sort(ds); !cmp.Equal(got, kept, cmpopts.EquateEmpty()) {
			t.Fatalf("round %d: %s", round, cmp.Diff(kept, got))
		}
	}
}
