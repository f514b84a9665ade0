// Package scaling is the deterministic guard that keeps lore linear in the
// size of its input: a test runs a step (load, validate, lint, render) on n
// and on 2n entries and fails when the heap allocations, counted or in bytes,
// grow by more than MaxGrowth. Allocation counts do not depend on the
// machine's load, so a quadratic path fails CI without timing anything. It
// must not import lore's packages: callers bring the step.
package scaling

import (
	"fmt"
	"runtime"
	"testing"
)

// MaxGrowth is the largest growth allowed when the entries double: linear
// work doubles, plus a margin for maps and slices that grow in steps.
const MaxGrowth = 2.2

// Cost is what one run of a step allocated.
type Cost struct {
	Allocs, Bytes uint64
}

func (c Cost) String() string { return fmt.Sprintf("%d allocs, %d bytes", c.Allocs, c.Bytes) }

// Measure runs f once to warm up (compiled schemas, caches filled once per
// process) and returns the least that one of the next three runs allocates.
// The runtime's counters are process-wide, so a run also counts whatever the
// test framework or the runtime allocated meanwhile; such noise only adds,
// and the least of three runs drops it (a CI run once saw 7 stray
// allocations, 5 KB, on a 16 KB step). Tests that call it must not run in
// parallel with others, whose allocations it would count.
func Measure(f func()) Cost {
	f()
	var least Cost
	for i := 0; i < 3; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		c := Cost{Allocs: after.Mallocs - before.Mallocs, Bytes: after.TotalAlloc - before.TotalAlloc}
		if i == 0 || c.Bytes < least.Bytes || (c.Bytes == least.Bytes && c.Allocs < least.Allocs) {
			least = c
		}
	}
	return least
}

// Linear fails t when the step that setup(n) prepares costs more than
// MaxGrowth times as much at 2n entries as at n, in allocations or in bytes.
// setup does the work that is not measured (writing the input) and returns
// the step.
func Linear(t testing.TB, n int, setup func(n int) func()) {
	t.Helper()
	LinearWithin(t, n, MaxGrowth, setup)
}

// LinearWithin is Linear with a limit of its own: the commands' guards on
// bookgen's shapes hold them to 2.1.
func LinearWithin(t testing.TB, n int, limit float64, setup func(n int) func()) {
	t.Helper()
	small, big := Measure(setup(n)), Measure(setup(2*n))
	if small.Allocs == 0 || small.Bytes == 0 {
		t.Fatalf("%d entries allocated nothing (%v): the step does no work", n, small)
	}
	ga, gb := float64(big.Allocs)/float64(small.Allocs), float64(big.Bytes)/float64(small.Bytes)
	if ga > limit || gb > limit {
		t.Errorf("doubling the entries (%d → %d) multiplies allocations by %.2f and bytes by %.2f (limit %.1f): something is worse than linear\n  %d entries: %v\n  %d entries: %v",
			n, 2*n, ga, gb, limit, n, small, 2*n, big)
		return
	}
	t.Logf("%d → %d entries: allocations ×%.2f, bytes ×%.2f", n, 2*n, ga, gb)
}
