package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/testcorpus"
)

// importFmtClean imports src as one YAML file, one JSON file and folders of
// both, and runs `lore fmt --check` on each: import writes lore's layout, so
// fmt has nothing to change.
func importFmtClean(t *testing.T, src string) {
	t.Helper()
	dir := t.TempDir()
	for _, out := range []string{"book.yaml", "book.json", "yaml/", "json/"} {
		args := []string{"import", src, "-o", filepath.Join(dir, out)}
		if strings.HasSuffix(out, "/") {
			args = append(args, "--format", strings.TrimSuffix(out, "/"))
		}
		if _, errs, code := runConvert(t, args...); code != 0 {
			t.Fatalf("import -o %s: exit %d: %s", out, code, errs)
		}
		if stdout, errs, code := runConvert(t, "fmt", "--check", filepath.Join(dir, out)); code != 0 || stdout != "" {
			t.Errorf("import -o %s is not fmt-clean: exit %d\n%s%s", out, code, stdout, errs)
		}
	}
}

// TestImportIsFmtClean: every foreign fixture that imports is in fmt's layout
// as written by import.
func TestImportIsFmtClean(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(formatFixtures, "*"))
	if len(files) == 0 {
		t.Fatal("no format fixtures")
	}
	n := 0
	for _, f := range files {
		if brokenOnPurpose(filepath.Base(f)) {
			continue // TestBrokenPNG, TestHostileCharX
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) { importFmtClean(t, f) })
	}
	if n < 10 {
		t.Fatalf("only %d fixtures imported", n)
	}
}

// TestCorpusImportIsFmtClean: the same for every file of the shared corpus
// that imports (two are broken on purpose).
func TestCorpusImportIsFmtClean(t *testing.T) {
	for _, f := range testcorpus.Files(t) {
		if strings.Contains(f, "TRUNCATED") || strings.HasSuffix(f, "invalid.json") {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) { importFmtClean(t, f) })
	}
}
