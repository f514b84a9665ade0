// Package golden is lore's one way to compare a test's output with a file it
// keeps (golden files, the docs' listings, testscript scripts) and to rewrite
// those files after a deliberate change: every package's tests run with
//
//	go test ./PKG -update
//
// and each check then writes what it got instead of comparing. The -update
// flag is defined here, once, for every test binary that imports the package.
// It is imported by tests only.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files, the docs' listings and the scripts' expected output instead of comparing")

// Update reports whether the tests run with -update: a check that keeps its
// own file writes what it got there instead of failing.
func Update() bool { return *update }

// Check compares got with the file at path; with -update it writes got there
// instead. The failure shows how got differs from the file, line by line.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	check(t, path, got, *update)
}

func check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (-want +got; go test -update to accept):\n%s", path, cmp.Diff(string(want), string(got)))
	}
}

// FirstDiff is a's text around the first byte where it differs from b.
func FirstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	s := max(0, i-200)
	return a[s:min(len(a), i+200)]
}
