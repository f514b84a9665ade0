package testrun

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/internal/golden"
)

// goldenTargets are a run with every outcome: the fixtures' passing tests,
// the failing fixture (every kind of expectation fails), and test files
// whose inputs or whose own text are broken.
func goldenTargets(t *testing.T) []Target {
	t.Helper()
	ts := []Target{{Path: "../fixtures/eldoria/failing-tests.yaml"}, {Path: "../fixtures/eldoria/tests/chat.yaml"}}
	more, err := filepath.Glob("testdata/errors/tests/*.yaml")
	if err != nil || len(more) == 0 {
		t.Fatal("no testdata/errors/tests")
	}
	for _, m := range more {
		ts = append(ts, Target{Path: m})
	}
	return ts
}

// TestWritersGolden writes one report in every format and compares each
// with testdata/golden/report.FORMAT (go test ./testrun -update rewrites them).
func TestWritersGolden(t *testing.T) {
	rep := Run(goldenTargets(t), Options{})
	if got := rep.Summary(); got != "7 passed, 4 failed, 4 could not run" {
		t.Errorf("summary %q", got)
	}
	if rep.ExitCode() != 2 {
		t.Errorf("exit code %d, want 2 (unreadable inputs)", rep.ExitCode())
	}
	for _, format := range Formats() {
		w, err := NewWriter(format, WriterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := w.Write(&b, rep); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		golden.Check(t, filepath.Join("testdata", "golden", "report."+format), b.Bytes())
	}
}

// TestDeterministic runs the same files one at a time and on many
// goroutines: the bytes must be the same.
func TestDeterministic(t *testing.T) {
	var outs [][]byte
	for _, jobs := range []int{1, 8} {
		rep := Run(goldenTargets(t), Options{Jobs: jobs})
		var b bytes.Buffer
		w, _ := NewWriter("json", WriterOptions{})
		if err := w.Write(&b, rep); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b.Bytes())
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("the report depends on how many cases run at once")
	}
}

// On a terminal the text format colours the case headers and shows the
// expectation's line with a caret under it.
func TestTextColor(t *testing.T) {
	rep := Run([]Target{{Path: "../fixtures/eldoria/failing-tests.yaml"}}, Options{Run: regexp.MustCompile("budget")})
	w, _ := NewWriter("text", WriterOptions{Color: true, Source: diag.FileSource()})
	var b bytes.Buffer
	if err := w.Write(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\x1b[1;31m--- FAIL\x1b[0m: ", "      active: [sleeping-stag]\n", "^~~~~~~~~~~~~"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}
