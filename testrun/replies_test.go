package testrun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/golden"
)

// TestRepliesGolden: reply expectations that hold and fail, in every
// writer (testdata/replies/report.FORMAT; -update rewrites them).
func TestRepliesGolden(t *testing.T) {
	rep := Run([]Target{{Path: "testdata/replies/tests/replies.yaml"}}, Options{})
	if got := rep.Summary(); got != "1 passed, 3 failed" {
		t.Errorf("summary %q", got)
	}
	if rep.ExitCode() != 1 {
		t.Errorf("exit code %d, want 1", rep.ExitCode())
	}
	for _, format := range Formats() {
		w, _ := NewWriter(format, WriterOptions{})
		var b bytes.Buffer
		if err := w.Write(&b, rep); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "replies", "report."+format), b.Bytes())
	}
}

func TestRepliesUnreadable(t *testing.T) {
	rep := Run([]Target{{Path: "testdata/replies/tests/unreadable.yaml"}}, Options{})
	if rep.ExitCode() != 2 || len(rep.Cases) != 1 || rep.Cases[0].Status != Error ||
		!strings.Contains(rep.Cases[0].Error, "missing.txt cannot be read") {
		t.Errorf("exit %d, cases %+v", rep.ExitCode(), rep.Cases[0])
	}
}

func TestRepliesNeedFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lore.test.yaml")
	if err := os.WriteFile(path, []byte("lorebook: book.yaml\ncases:\n  - name: x\n    expect:\n      replies: {format: a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds, err := Load(path)
	if err != nil || len(ds) != 1 || ds[0].Line != 5 || ds[0].Column != 16 ||
		ds[0].Message != "replies: names no reply files: give it match: or notMatch: (a list of files or folders)" {
		t.Errorf("diagnostics %v, error %v", ds, err)
	}
}
