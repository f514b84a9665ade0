package sillytavern

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// TestImportedRendersAlike imports every conformance book to a lore file (as
// `lore import` writes it), loads that file back, and renders both: the JSON
// of a SillyTavern book read directly and of the same book imported must be
// the same, because the engine reads both through formats.STEntry.
func TestImportedRendersAlike(t *testing.T) {
	dir := t.TempDir()
	for _, f := range goldenCases(t) {
		rel, _ := filepath.Rel("testdata/cases", f)
		if strings.HasPrefix(rel, "random") && !strings.HasSuffix(rel, "0.json") {
			continue // a tenth of the random cases: the feature cases cover the fields
		}
		t.Run(rel, func(t *testing.T) {
			c, direct := loadCase(t, f)
			data, err := canon.EncodeLorebook(direct, canon.YAML)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, strings.ReplaceAll(rel, "/", "_")+".yaml")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			imported, ds, err := schema.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if d.Severity.String() == "error" {
					t.Fatalf("the imported book does not load: %v", d)
				}
			}
			renderJSON := func(in *render.Input) string {
				lengths := c.Turns
				if lengths == nil {
					lengths = []int{len(c.Messages)}
				}
				rs, err := New().RenderTurns(in, lengths)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				out, _ := output.NewOutput("json", output.OutputOptions{})
				for _, r := range rs {
					r.Report = nil // the report names the book's path
					if err := out.Write(&b, r); err != nil {
						t.Fatal(err)
					}
				}
				return b.String()
			}
			a := renderJSON(caseInput(t, c, direct))
			b := renderJSON(caseInput(t, c, imported))
			if a != b {
				t.Errorf("read directly and imported, the book renders differently:\n--- direct\n%s\n--- imported\n%s", a, b)
			}
		})
	}
}
