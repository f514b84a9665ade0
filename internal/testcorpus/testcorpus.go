// Package testcorpus finds, for tests, the shared corpus of real lorebooks and
// cards (../shared/corpus beside the repository, or $LORE_CORPUS). A test
// that needs it skips when it is absent, so that `go test ./...` passes on a
// bare clone, unless LORE_REQUIRE_CORPUS=1 (set by .ci/run): then a missing
// corpus fails the test, because a proof that silently did not run is no
// proof. It is imported by tests only.
package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the corpus folder, or skips (fails, with LORE_REQUIRE_CORPUS=1)
// the test when there is none.
func Dir(t testing.TB) string {
	t.Helper()
	dir := Find(t)
	if dir == "" {
		t.Skipf("corpus not found (set LORE_CORPUS; LORE_REQUIRE_CORPUS=1 makes this a failure)")
	}
	return dir
}

// Find returns the corpus folder, or "" when there is none, for a test that
// goes on with lore's own fixtures alone; with LORE_REQUIRE_CORPUS=1 a
// missing corpus fails the test instead.
func Find(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("LORE_CORPUS")
	if dir == "" {
		dir = filepath.Join(repoRoot(t), "..", "shared", "corpus")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if os.Getenv("LORE_REQUIRE_CORPUS") == "1" {
			t.Fatalf("corpus not found at %s, and LORE_REQUIRE_CORPUS=1 requires it (set LORE_CORPUS)", dir)
		}
		return ""
	}
	return dir
}

// repoRoot is the folder of go.mod above the test's working directory (a
// test runs in its package's folder).
func repoRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s", wd)
		}
	}
}

// Files lists every file of the corpus but its notes (*.md), sorted, failing
// the test on a folder it cannot read.
func Files(t testing.TB) []string {
	t.Helper()
	dir := Dir(t)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && filepath.Ext(p) != ".md" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading the corpus: %v", err)
	}
	if len(files) == 0 {
		t.Fatalf("the corpus at %s holds no files", dir)
	}
	return files
}
