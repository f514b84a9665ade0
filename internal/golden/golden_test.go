package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Errorf(format string, args ...any) { r.failed = format }
func (r *recorder) Helper()                           {}

func TestCheck(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "g.txt")
	check(t, p, []byte("one\n"), true)
	if b, _ := os.ReadFile(p); string(b) != "one\n" {
		t.Fatalf("update wrote %q", b)
	}
	check(t, p, []byte("one\n"), false)
	r := &recorder{TB: t}
	check(r, p, []byte("two\n"), false)
	if !strings.Contains(r.failed, "differs") {
		t.Errorf("a different output passed")
	}
	if d := FirstDiff("abcX", "abcY"); d != "abcX" {
		t.Errorf("FirstDiff %q", d)
	}
}
