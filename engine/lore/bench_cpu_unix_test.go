//go:build unix

package lore

import "syscall"

// processCPU is the CPU time this process has used, in nanoseconds (user +
// system). Benchmarks report it beside wall time because the machines they
// run on are often shared: wall time then measures the neighbours too.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
