package yumina

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/render"
)

var update = flag.Bool("update", false, "rewrite the prompts listed under docs/engines.md's Yumina examples")

const docsPath = "../../docs/engines.md"

// docExample is one example of docs/engines.md's Yumina section: its
// files (book.yaml, chat.yaml, vars.yaml) and the lines of the ```text block
// that lists both engines' prompts.
type docExample struct {
	id               string // "y3"
	files            map[string]string
	outStart, outEnd int
}

var exampleHeading = regexp.MustCompile(`^### (Y\d+)\. `)

// docExamples finds the examples of the Yumina section: under each "### Yn."
// heading, ```yaml blocks whose first line names the file, then a ```text
// block.
func docExamples(t *testing.T, lines []string) (rows []string, out []docExample) {
	t.Helper()
	in := false
	var cur *docExample
	row := regexp.MustCompile(`^\| (Y\d+) \|`)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") {
			in = l == "## Yumina"
			continue
		}
		if !in {
			continue
		}
		if m := row.FindStringSubmatch(l); m != nil {
			rows = append(rows, m[1])
		}
		if m := exampleHeading.FindStringSubmatch(l); m != nil {
			out = append(out, docExample{id: strings.ToLower(m[1]), files: map[string]string{}})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil || !strings.HasPrefix(l, "```") || l == "```" {
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		switch {
		case l == "```yaml" && i+1 < end && strings.HasPrefix(lines[i+1], "# "):
			cur.files[strings.TrimPrefix(lines[i+1], "# ")] = strings.Join(lines[i+2:end], "\n") + "\n"
		case l == "```text":
			cur.outStart, cur.outEnd = i+1, end
		}
		i = end
	}
	return rows, out
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
	rows, examples := docExamples(t, lines)
	if len(rows) == 0 || len(examples) != len(rows) {
		t.Fatalf("docs/engines.md: %d rows in the Yumina table, %d examples", len(rows), len(examples))
	}
	for i, ex := range examples {
		if want := strings.ToLower(rows[i]); ex.id != want {
			t.Errorf("example %d is %s, the table's row is %s", i+1, ex.id, want)
		}
		if ex.outStart == 0 || ex.files["book.yaml"] == "" {
			t.Fatalf("docs/engines.md: example %s needs a # book.yaml block and a ```text block", ex.id)
		}
	}
	replace := map[int][]string{}
	for _, ex := range examples {
		got := ex.listing(t)
		want := lines[ex.outStart:ex.outEnd]
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			if *update {
				replace[ex.outStart] = got
				continue
			}
			t.Errorf("docs/engines.md:%d: example %s lists\n%s\nbut the engines send\n%s\n(go test ./engine/yumina -run TestDocsExamples -update)",
				ex.outStart, ex.id, strings.Join(want, "\n"), strings.Join(got, "\n"))
		}
		ex.checkCase(t)
	}
	if len(replace) == 0 {
		return
	}
	var out []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		if got, ok := replace[i+1]; ok {
			out = append(out, got...)
			for i+1 < len(lines) && lines[i+1] != "```" {
				i++
			}
		}
	}
	if err := os.WriteFile(docsPath, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// budgeted reports an example whose lorebook sets Yumina's budget, which the
// oracle runs without.
func (ex docExample) budgeted() bool {
	return strings.Contains(ex.files["book.yaml"], "lorebookBudget")
}

// checkCase makes sure the example is a hand-written case of the corpus with
// the same files (scripts/oracle-yumina golden writes it).
func (ex docExample) checkCase(t *testing.T) {
	if ex.budgeted() {
		return
	}
	path := filepath.Join("testdata", "cases", "doc-"+ex.id+".txtar")
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Errorf("example %s: %v (scripts/oracle-yumina golden writes it)", ex.id, err)
		return
	}
	got := map[string]string{}
	for _, f := range ar.Files {
		got[f.Name] = string(f.Data)
	}
	for name, text := range ex.files {
		caseName := name
		if name == "chat.yaml" {
			caseName = "transcript.yaml"
		}
		if got[caseName] != text {
			t.Errorf("%s: %s differs from example %s (scripts/oracle-yumina golden)", path, caseName, ex.id)
		}
	}
}

// listing renders the example with both engines, one message a line.
func (ex docExample) listing(t *testing.T) []string {
	dir := t.TempDir()
	ar := &txtar.Archive{}
	for name, text := range ex.files {
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
			t.Fatalf("example %s, %s: %v", ex.id, eng.Name(), err)
		}
		out = append(out, "--engine "+eng.Name())
		for _, m := range res.Messages {
			var ids []string
			for _, s := range m.Sources {
				if !strings.HasPrefix(s, "message:") {
					ids = append(ids, s)
				}
			}
			src := ""
			if len(ids) > 0 {
				src = " [" + strings.Join(ids, ", ") + "]"
			}
			out = append(out, fmt.Sprintf("  %s%s: %s", m.Role, src, strings.ReplaceAll(m.Content, "\n", "⏎")))
		}
	}
	return out
}
