package cmd

import (
	"os"
	"runtime/debug"
	"testing"
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
