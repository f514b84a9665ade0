//go:build !unix

package schema

import "time"

var processStart = time.Now()

func cpuTime() time.Duration { return time.Since(processStart) }
