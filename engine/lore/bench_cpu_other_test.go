//go:build !unix

package lore

// processCPU is unknown here; benchmarks then report 0 CPU time.
func processCPU() int64 { return 0 }
