//go:build unix

package schema

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used: timing tests compare it,
// not wall-clock time, so a machine busy with other work does not fail them.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
