package cmd

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// brokenPipe is a writer whose reader has gone away.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestOutputErrors: output that cannot be written is exit 2 with a message on
// stderr, for every command that prints, never a silent exit 0.
func TestOutputErrors(t *testing.T) {
	book, tr := "../fixtures/eldoria/book", "../fixtures/eldoria/transcript.yaml"
	for _, args := range [][]string{
		{"render", book, "--transcript", tr},
		{"render", book, "--format", "json"},
		{"render", book, "--explain", "whisperwood"},
		{"tokens", book},
		{"lint", book},
		{"validate", writeFile(t, "bad.yaml", "id: Bad\nsection: examples\ncontent: x\n")},
		{"fmt", fmtFile(t)},
		{"import", "../fixtures/formats/st_edge_cases.json"},
		{"export", book, "--to", "sillytavern"},
		{"rules"},
		{"schema", "entry"},
		{"version"},
		{"completion", "bash"},
		{"--help"},
	} {
		var errb bytes.Buffer
		code := Main(args, IO{Stdin: strings.NewReader(""), Stdout: brokenPipe{}, Stderr: &errb})
		if code != ExitUsage || !strings.Contains(errb.String(), "lore: cannot write the output: broken pipe") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestStderrErrors: a command whose stderr cannot be written exits 2 too.
func TestStderrErrors(t *testing.T) {
	var out bytes.Buffer
	code := Main([]string{"validate", "../fixtures/eldoria/book"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: brokenPipe{}})
	if code != ExitUsage {
		t.Errorf("exit %d", code)
	}
}

func fmtFile(t *testing.T) string {
	return writeFile(t, "e.yaml", fmtUnformatted)
}
