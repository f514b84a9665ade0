//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the child's maximum resident set in bytes: getrusage gives
// kilobytes, except on macOS, which gives bytes.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) << 10
}

// mkfifo makes a named pipe, a hostile input for a folder walk.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
