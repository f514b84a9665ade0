package cmd

import (
	"os"
	"runtime/debug"
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
// the collector's goal is a quarter over the heap the load held, and
// endPace puts the pace from before back; a small book, or a GOGC of the
// environment, leaves it alone.
func TestCollectLoadPacesTheWork(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: collectLoad leaves the pace alone")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no cycle of its own between the garbage and the call
	big := &schema.Lorebook{Entries: make([]*schema.Entry, collectFrom)}
	garbage := func() {
		for range 64 {
			sink = make([]byte, 1<<20) // 64 MB the load "held"
		}
		sink = nil
	}
	percent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}

	garbage()
	collectLoad(big)
	if got := percent(); got < 250 {
		t.Errorf("GC percent %d after collecting 64 MB of garbage, want a quarter over the load's freed heap (over 250)", got)
	}
	garbage()
	collectLoad(big) // a second book: paced again, from the same original
	endPace()
	if now := percent(); now != -1 {
		t.Errorf("GC percent %d after endPace, want the one before the first collectLoad (-1)", now)
	}
	endPace() // nothing to put back
	if now := percent(); now != -1 {
		t.Errorf("GC percent %d after a second endPace, want -1", now)
	}

	garbage()
	collectLoad(&schema.Lorebook{Entries: make([]*schema.Entry, collectFrom-1)})
	if now := percent(); now != -1 {
		t.Errorf("a book of %d entries changed the GC percent to %d", collectFrom-1, now)
	}

	t.Setenv("GOGC", "100")
	garbage()
	collectLoad(big)
	if now := percent(); now != -1 {
		t.Errorf("GOGC in the environment, yet collectLoad set the GC percent to %d", now)
	}
	endPace()
}

var sink []byte
