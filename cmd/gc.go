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

// heapObjects is the runtime metric of the bytes the heap's objects take.
const heapObjects = "/memory/classes/heap/objects:bytes"

// pacing says collectLoad has set the collector's pace, and pacedFrom
// holds the percent from before it did, which endPace puts back.
var (
	pacing    atomic.Bool
	pacedFrom atomic.Int64
)

// collectLoad collects the garbage of loading a lorebook of many entries
// before a command works on it, and lets that work use, without another
// collection, about the memory the load held: the collector's goal becomes
// a quarter over the heap the load left, since the collector starts its
// cycle before the goal. The pace lasts until endPace.
//
// Loading bookgen's 10,000-entry JSON book leaves 67 MB of heap, 24 MB of
// it live (the parsed tree and the decoder's copies are garbage). Lint's
// tables (35 MB more) went first to pages the system had to hand out
// fresh (23,100 page faults a run, validate's 19,300; now 21,500) until
// the heap reached twice the load's last live size, and the collector's
// cycle then fell wherever the work was: a 20k book's lint peaked at
// 163 MB in one run and 206 MB in the next. Now the work reuses the
// load's freed pages with no other collection: lint, render and tokens
// peak at 95–96, 96–97 and 93–97 MB on the 10k book (were 94–102,
// 100–109 and 96–125) and 158–162, 157–179 and 158–173 MB on the 20k one
// (were 176–207, 168–194 and 175–223), and lint's CPU time went from
// 0.206 to 0.183 s (41 interleaved runs). A GOGC set in the environment
// is left alone.
func collectLoad(book *schema.Lorebook) {
	if book == nil || len(book.Entries) < collectFrom || os.Getenv("GOGC") != "" {
		return
	}
	s := []metrics.Sample{{Name: heapObjects}}
	metrics.Read(s)
	held := s[0].Value.Uint64()
	runtime.GC()
	metrics.Read(s)
	live := s[0].Value.Uint64()
	if live == 0 || held <= 2*live {
		return // the collector's own pace lets the work grow as far
	}
	old := debug.SetGCPercent(int((held - live) * 125 / live))
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
