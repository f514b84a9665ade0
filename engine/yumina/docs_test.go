package yumina

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/internal/docexamples"
	goldenfile "github.com/lorekit/lore/internal/golden"
	"github.com/lorekit/lore/render"
)

const docsPath = "../../docs/engines.md"

// docExample is one example of docs/engines.md's Yumina section: its
// files (book.yaml, chat.yaml, vars.yaml), each a ```yaml block whose first
// line names it, and the ```text block that lists both engines' prompts.
type docExample struct{ docexamples.Example }

func yamlFile(fence, first string) (string, bool) {
	name, ok := strings.CutPrefix(first, "# ")
	return name, ok && fence == "```yaml"
}

// TestDocsExamples re-renders every example of the Yumina section with both
// engines and compares the listing under it (-update rewrites the listings).
// Every row of the table must have an example, and every example (but the
// budget's, which the oracle cannot check) must be a case of the conformance
// corpus, so that the prompt listed for Yumina is what Yumina's code sends.
func TestDocsExamples(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	rows, parsed := docexamples.Parse(lines, "Yumina", "Y", yamlFile)
	if err := docexamples.Check(rows, parsed, "book.yaml"); err != nil {
		t.Fatalf("docs/engines.md, the Yumina section: %v", err)
	}
	docexamples.Compare(t, docsPath, lines, parsed, goldenfile.Update(), "engine/yumina",
		func(ex docexamples.Example) []string { return docExample{ex}.listing(t) },
		func(ex docexamples.Example) { docExample{ex}.checkCase(t) })
}

// budgeted reports an example whose lorebook sets Yumina's budget, which the
// oracle runs without.
func (ex docExample) budgeted() bool {
	return strings.Contains(ex.Files["book.yaml"], "lorebookBudget")
}

// checkCase makes sure the example is a hand-written case of the corpus with
// the same files (scripts/oracle-yumina golden writes it).
func (ex docExample) checkCase(t *testing.T) {
	if ex.budgeted() {
		return
	}
	path := filepath.Join("testdata", "cases", "doc-"+ex.ID+".txtar")
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Errorf("example %s: %v (scripts/oracle-yumina golden writes it)", ex.ID, err)
		return
	}
	got := map[string]string{}
	for _, f := range ar.Files {
		got[f.Name] = string(f.Data)
	}
	for name, text := range ex.Files {
		caseName := name
		if name == "chat.yaml" {
			caseName = "transcript.yaml"
		}
		if got[caseName] != text {
			t.Errorf("%s: %s differs from example %s (scripts/oracle-yumina golden)", path, caseName, ex.ID)
		}
	}
}

// listing renders the example with both engines, one message a line.
func (ex docExample) listing(t *testing.T) []string {
	dir := t.TempDir()
	ar := &txtar.Archive{}
	for name, text := range ex.Files {
		if name == "chat.yaml" {
			name = "transcript.yaml"
		}
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(text)})
	}
	path := filepath.Join(dir, "case.txtar")
	if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
	in, _ := loadCase(t, path)
	var out []string
	for _, eng := range []render.Engine{lore.New(), New()} {
		res, err := eng.Render(in)
		if err != nil {
			t.Fatalf("example %s, %s: %v", ex.ID, eng.Name(), err)
		}
		out = append(out, "--engine "+eng.Name())
		out = append(out, docexamples.Listing(res)...)
	}
	return out
}
