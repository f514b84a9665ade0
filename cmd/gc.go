package cmd

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

	"github.com/lorekit/lore/schema"
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

// collectFrom is the number of entries from which a lorebook's load is
// followed by a collection (collectLoad).
const collectFrom = 1000

// The runtime metrics collectLoad reads: the heap the collector lets grow
// before its next cycle, the bytes the heap's objects take, and the roots
// it scans.
const (
	heapGoal    = "/gc/heap/goal:bytes"
	heapObjects = "/memory/classes/heap/objects:bytes"
	scanGlobals = "/gc/scan/globals:bytes"
	scanStacks  = "/gc/scan/stack:bytes"
)

// pacing says collectLoad has set the collector's pace, and pacedFrom
// holds the percent from before it did, which endPace puts back.
var (
	pacing    atomic.Bool
	pacedFrom atomic.Int64
)

// collectLoad collects the garbage of loading a lorebook of many entries
// before a command works on it, and lets that work grow the heap, without
// another collection, as far as the collector was letting the load grow
// it: the goal it had set before the collection stays the goal. The pace
// lasts until endPace. The work then reuses the load's freed pages rather
// than faulting in fresh ones, and no cycle falls inside it, so its peak
// no longer depends on where one would have fallen. The figures are in
// docs/decisions.md (Commands). A GOGC set in the environment is left
// alone.
func collectLoad(book *schema.Lorebook) {
	if book == nil || len(book.Entries) < collectFrom || os.Getenv("GOGC") != "" {
		return
	}
	s := []metrics.Sample{{Name: heapGoal}, {Name: heapObjects}, {Name: scanGlobals}, {Name: scanStacks}}
	metrics.Read(s)
	goal := s[0].Value.Uint64()
	runtime.GC()
	metrics.Read(s)
	// The collector's goal is the live heap plus GOGC percent of it and of
	// the roots it scans, globals and stacks.
	live, roots := s[1].Value.Uint64(), s[2].Value.Uint64()+s[3].Value.Uint64()
	if live == 0 || goal <= 2*live+roots || goal > 1<<50 {
		return // the collector's own pace lets the work grow as far (or it is off)
	}
	old := debug.SetGCPercent(int((goal - live) * 100 / (live + roots)))
	if pacing.CompareAndSwap(false, true) {
		pacedFrom.Store(int64(old))
	}
}

// endPace puts back the collector's percent from before collectLoad. Main
// calls it as it returns, so that a command's output, written after its
// work, never starts a collection of its own (putting the pace back makes
// the next allocation start one when the heap is past the old goal).
func endPace() {
	if pacing.CompareAndSwap(true, false) {
		debug.SetGCPercent(int(pacedFrom.Load()))
	}
}
