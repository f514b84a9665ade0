package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/internal/golden"
)

// loadAny loads a path as validate does: by the kind its content shows.
func loadAny(p string) []diag.Diagnostic {
	kind := KindLorebook
	if strings.HasSuffix(p, ".jsonl") {
		kind = KindTranscript
	} else if root, _, err := ParseFile(p); err == nil {
		kind = DetectKind(p, root)
	}
	var ds []diag.Diagnostic
	var err error
	switch kind {
	case KindTranscript:
		_, ds, err = LoadTranscript(p)
	case KindVars:
		_, ds, err = LoadVars(p)
	default:
		_, ds, err = Load(p)
	}
	return diag.Sort(append(ds, ErrorDiagnostics(p, err)...))
}

// TestGoldenBad loads each broken input under testdata/bad and compares the
// diagnostics, one `file:line:col: severity: message [rule]` per line, with
// the .out file beside it. Run `go test ./schema -run Golden -update` to
// rewrite them, and review the diff.
func TestGoldenBad(t *testing.T) {
	inputs, err := filepath.Glob("testdata/bad/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, in := range inputs {
		if strings.HasSuffix(in, ".out") {
			continue
		}
		n++
		t.Run(filepath.Base(in), func(t *testing.T) {
			before, _ := os.ReadFile(in)
			var b strings.Builder
			for _, d := range loadAny(filepath.ToSlash(in)) {
				fmt.Fprintf(&b, "%s: %s: %s [%s]\n", d.Pos(), d.Severity, d.Message, d.Rule)
			}
			got := b.String()
			if got == "" {
				t.Errorf("no diagnostics for a broken input")
			}
			out := strings.TrimSuffix(in, filepath.Ext(in)) + ".out"
			golden.Check(t, out, []byte(got))
			// Loading never changes the input.
			if after, _ := os.ReadFile(in); string(after) != string(before) {
				t.Errorf("%s was changed", in)
			}
		})
	}
	if n < 20 {
		t.Errorf("only %d golden inputs", n)
	}
}
