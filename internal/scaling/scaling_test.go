package scaling

import (
	"fmt"
	"testing"
)

// recorder stands for the test a guard reports to, keeping what it says.
type recorder struct {
	*testing.T
	failed bool
	msg    string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *recorder) Logf(string, ...any)               {}

var sink [][]byte

// step allocates n (linear) or n*n/100 (quadratic) slices of 64 bytes, and
// the list that holds them at its final size, so its cost does not depend on
// what an earlier run left behind.
func step(quadratic bool) func(n int) func() {
	return func(n int) func() {
		return func() {
			m := n
			if quadratic {
				m = n * n / 100
			}
			sink = make([][]byte, 0, m)
			for i := 0; i < m; i++ {
				sink = append(sink, make([]byte, 64))
			}
		}
	}
}

func TestLinearPassesLinearAndFailsQuadratic(t *testing.T) {
	r := &recorder{T: t}
	Linear(r, 1000, step(false))
	if r.failed {
		t.Errorf("a linear step failed the guard: %s", r.msg)
	}
	r = &recorder{T: t}
	Linear(r, 1000, step(true))
	if !r.failed {
		t.Error("a quadratic step passed the guard")
	}
}
