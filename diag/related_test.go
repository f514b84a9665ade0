package diag

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/golden"
)

// relatedDiagnostics are two findings of a reply checked against a template:
// one place in the reply, one in the template.
func relatedDiagnostics() []Diagnostic {
	at := func(line, col int) *Related {
		return &Related{File: "book/status.yaml", Line: line, Column: col, Message: "template"}
	}
	return []Diagnostic{
		{File: "replies/one.txt", Line: 3, Column: 4, Severity: Error, Rule: "reply-literal",
			Message: `expected "心情:", found "心境:"`, Entry: "status", Related: at(9, 11)},
		{File: "replies/one.txt", Line: 5, Column: 8, Severity: Error, Rule: "reply-limit",
			Message: "25 characters; the format allows at most 20", Entry: "status", Related: at(10, 20)},
	}
}

func TestRelatedInEveryPrinter(t *testing.T) {
	for _, format := range Formats() {
		pr, err := NewPrinter(format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := pr.Print(&b, relatedDiagnostics()); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "related."+format), b.Bytes())
		if !strings.Contains(b.String(), "status.yaml") {
			t.Errorf("%s output does not name the template:\n%s", format, b.String())
		}
	}
}

func TestSortKeepsFindingsThatDifferOnlyInTheirRelatedPlace(t *testing.T) {
	ds := relatedDiagnostics()[:1]
	ds = append(ds, ds[0], ds[0])
	other := *ds[0].Related
	other.Line = 20
	ds[2].Related = &other
	ds[1].Related = &Related{File: other.File, Line: 9, Column: 11, Message: "template"} // equal to ds[0]'s, another pointer
	if got := Sort(ds); len(got) != 2 {
		t.Errorf("Sort kept %d findings, want 2 (an exact duplicate removed, a different template place kept)", len(got))
	}
}
