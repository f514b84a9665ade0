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

// step allocates n (linear) or n*n (quadratic) small slices.
func step(quadratic bool) func(n int) func() {
	return func(n int) func() {
		return func() {
			sink = sink[:0]
			m := n
			if quadratic {
				m = n * n / 100
			}
			for i := 0; i < m; i++ {
				sink = append(sink, make([]byte, 16))
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
