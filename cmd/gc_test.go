package cmd

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/lorekit/lore/schema"
)

// TestTuneGCSetsTheMemoryLimit: the soft limit is set unless the
// environment sets one.
func TestTuneGCSetsTheMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	TuneGC()
	got := debug.SetMemoryLimit(-1)
	if os.Getenv("GOMEMLIMIT") == "" && got != memoryLimit {
		t.Errorf("memory limit %d after TuneGC, want %d", got, memoryLimit)
	}
	if os.Getenv("GOMEMLIMIT") != "" && got == memoryLimit {
		t.Errorf("TuneGC replaced the GOMEMLIMIT of the environment")
	}
}

// TestCollectLoadPacesTheWork: after the load of a book of many entries,
// the collector's goal stays what it was before collectLoad collected the
// load's garbage, and endPace puts the pace from before back; a small book,
// or a GOGC of the environment, leaves the pace alone.
func TestCollectLoadPacesTheWork(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: collectLoad leaves the pace alone")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // a goal well over twice what stays live
	big := &schema.Lorebook{Entries: make([]*schema.Entry, collectFrom)}
	book := make([][]byte, 32) // 32 MB a loaded book keeps live: the roots weigh little beside it
	for i := range book {
		book[i] = make([]byte, 1<<20)
	}
	defer runtime.KeepAlive(book)
	garbage := func() { // 64 MB live at the last cycle, as a parsed tree is during the load, and garbage now
		tree := make([][]byte, 64)
		for i := range tree {
			tree[i] = make([]byte, 1<<20)
		}
		runtime.GC()
		runtime.KeepAlive(tree)
	}
	percent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	goal := func() uint64 {
		s := []metrics.Sample{{Name: heapGoal}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}

	garbage()
	before := goal()
	collectLoad(big)
	after := goal()
	if after < before*9/10 || after > before*11/10 {
		t.Errorf("heap goal %d MB after collectLoad, want the %d MB from before it (±10%%): the collection of the tree would have lowered it to about %d MB",
			after>>20, before>>20, 5*32)
	}
	garbage()
	collectLoad(big) // a second book: paced again, from the same original
	endPace()
	if now := percent(); now != 400 {
		t.Errorf("GC percent %d after endPace, want the one before the first collectLoad (400)", now)
	}
	endPace() // nothing to put back
	if now := percent(); now != 400 {
		t.Errorf("GC percent %d after a second endPace, want 400", now)
	}

	garbage()
	collectLoad(&schema.Lorebook{Entries: make([]*schema.Entry, collectFrom-1)})
	if now := percent(); now != 400 {
		t.Errorf("a book of %d entries changed the GC percent to %d", collectFrom-1, now)
	}

	t.Setenv("GOGC", "100")
	garbage()
	collectLoad(big)
	if now := percent(); now != 400 {
		t.Errorf("GOGC in the environment, yet collectLoad set the GC percent to %d", now)
	}
	endPace()
}
