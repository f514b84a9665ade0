package cmd

import (
	"os"
	"runtime/debug"
)

// memoryLimit is the soft limit on the process's memory: above it the
// collector runs as often as it must (at most half the CPU), not only when
// the heap has doubled.
const memoryLimit = 768 << 20

// TuneGC sets a soft memory limit for the largest inputs: lore fmt of
// 100,000 entries holds about 480 MB live while it checks its work (two
// trees, two lorebooks), which GOGC=100 lets grow to a 990 MB peak; under
// memoryLimit it peaks at 790 MB for 0.4 s more. Only a heap near the limit
// is affected. A GOMEMLIMIT set in the environment is left alone. The
// command calls TuneGC once, from main; tests do not.
//
// A larger starting heap (GOGC=400 until 64 MB live, as the Go compiler
// does) was tried and dropped: it saved 0.02–0.05 s on 10k-entry books but
// made peak memory jump (tokens on 10k entries: 119 → 305 MB) and grow by
// up to 2.29× when the entries doubled, over the 2.2× bound.
func TuneGC() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
