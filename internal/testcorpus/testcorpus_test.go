package testcorpus

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMissingCorpus runs this test binary again on a missing corpus: without
// LORE_REQUIRE_CORPUS the test skips, with LORE_REQUIRE_CORPUS=1 it fails.
func TestMissingCorpus(t *testing.T) {
	if os.Getenv("TESTCORPUS_CHILD") == "1" {
		Dir(t)
		return
	}
	for _, tc := range []struct {
		require  string
		fails    bool
		wantText string
	}{
		{"", false, "--- SKIP: TestMissingCorpus"},
		{"1", true, "LORE_REQUIRE_CORPUS=1 requires it"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingCorpus$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTCORPUS_CHILD=1", "LORE_CORPUS="+t.TempDir()+"/none", "LORE_REQUIRE_CORPUS="+tc.require)
		out, err := cmd.CombinedOutput()
		if (err != nil) != tc.fails || !strings.Contains(string(out), tc.wantText) {
			t.Errorf("LORE_REQUIRE_CORPUS=%q: err %v, output:\n%s", tc.require, err, out)
		}
	}
}

// TestFiles: the real corpus, when present, lists its files but SOURCES.md.
func TestFiles(t *testing.T) {
	files := Files(t)
	for _, f := range files {
		if strings.HasSuffix(f, ".md") {
			t.Errorf("%s listed", f)
		}
	}
}
