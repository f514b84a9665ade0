package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// withDelay sets how long work runs before its bar shows, for one test.
func withDelay(t *testing.T, d time.Duration) {
	t.Helper()
	old := progressDelay
	progressDelay = d
	t.Cleanup(func() { progressDelay = old })
}

func TestProgressOnlyOnATerminalAfterTheDelay(t *testing.T) {
	withDelay(t, 0)
	var b bytes.Buffer
	if p := startProgress(&IO{Stderr: &b}, 3, "testing"); p != nil {
		t.Fatal("a bar where stderr is no terminal")
	}
	var nilBar *progress
	nilBar.add(1) // a nil bar does nothing
	nilBar.done()

	p := startProgress(&IO{Stderr: &b, StderrTerminal: true}, 3, "testing")
	time.Sleep(150 * time.Millisecond) // past the bar's throttle
	p.add(2)
	if got := b.String(); !strings.Contains(got, "testing") || !strings.Contains(got, "2/3") {
		t.Fatalf("bar after the delay = %q, want the description and 2/3", got)
	}
	p.done()

	withDelay(t, time.Hour)
	b.Reset()
	p = startProgress(&IO{Stderr: &b, StderrTerminal: true}, 3, "testing")
	time.Sleep(150 * time.Millisecond)
	p.add(3)
	p.done()
	if b.Len() != 0 {
		t.Fatalf("work done before the delay drew %q", b.String())
	}
}

// TestProgressCommands: --runs, lore test and a folder import draw a bar on
// a terminal's stderr and print the same stdout as without one; in a pipe
// they draw nothing.
func TestProgressCommands(t *testing.T) {
	withDelay(t, 0)
	book := filepath.Join("..", "fixtures", "eldoria", "book")
	out := t.TempDir()
	for _, tc := range []struct {
		name, bar string
		args      func(run int) []string
	}{
		{"runs", "rendering", func(int) []string {
			return []string{"render", book, "--transcript", "../fixtures/eldoria/transcript.yaml", "--vars", "../fixtures/eldoria/vars.yaml", "--runs", "40"}
		}},
		{"test", "testing", func(int) []string { return []string{"test", "../fixtures/eldoria/tests"} }},
		{"import", "writing entries", func(run int) []string {
			return []string{"import", "../fixtures/formats/st_edge_cases.json", "-o", filepath.Join(out, "run"+string(rune('a'+run))) + "/"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plainOut, plainErr, plainCode := runCmd(t, IO{}, tc.args(0)...)
			if strings.Contains(plainErr, "\\r") || strings.Contains(plainErr, tc.bar) {
				t.Fatalf("a pipe got a bar: %q", plainErr)
			}
			ttyOut, ttyErr, ttyCode := runCmd(t, IO{StderrTerminal: true}, tc.args(1)...)
			if ttyCode != plainCode {
				t.Fatalf("exit %d on a terminal, %d in a pipe", ttyCode, plainCode)
			}
			if tc.name != "import" && ttyOut != plainOut {
				t.Fatalf("stdout differs with a bar:\n%s\n---\n%s", ttyOut, plainOut)
			}
			if !strings.Contains(ttyErr, tc.bar) {
				t.Fatalf("no %q bar on the terminal's stderr: %q", tc.bar, ttyErr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(out, "runb", "lorebook.yaml")); err != nil {
		t.Fatal("the import with a bar wrote no book:", err)
	}
}
