package cmd

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

var liveHeap [][]byte

// TestTuneGCReturnsToDefault: the large starting heap lasts only until the
// live heap passes startHeap; then the collector is back at GOGC=100.
func TestTuneGCReturnsToDefault(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: TuneGC leaves it alone")
	}
	defer debug.SetGCPercent(100)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	TuneGC()
	if got := debug.SetMemoryLimit(-1); got != memoryLimit && os.Getenv("GOMEMLIMIT") == "" {
		t.Errorf("memory limit %d after TuneGC, want %d", got, memoryLimit)
	}
	if prev := debug.SetGCPercent(400); prev != 400 {
		t.Fatalf("after TuneGC the collector runs at GOGC=%d, want 400", prev)
	}
	for i := 0; i < 2*startHeap>>20; i++ {
		liveHeap = append(liveHeap, make([]byte, 1<<20))
	}
	defer func() { liveHeap = nil }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // the finalizer runs on its own goroutine
		if prev := debug.SetGCPercent(400); prev == 100 {
			debug.SetGCPercent(100)
			return
		}
	}
	t.Fatalf("with %d MB live the collector never went back to GOGC=100", 2*startHeap>>20)
}
