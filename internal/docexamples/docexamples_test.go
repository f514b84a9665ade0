package docexamples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const page = "# Engines\n## Other\n| X1 | not this section |\n## Demo\n| | a | b |\n|---|---|---|\n| X1 | one | two |\n| X2 | three | four |\n" +
	"### X1. First\n```yaml\n# book.yaml\nentries: []\n```\n```text\nold\n```\n" +
	"### X2. Second\n```json\n// book.json\n{}\n```\n```yaml\nnot a file\n```\n```text\n```\n"

func TestParseCheckRewrite(t *testing.T) {
	lines := strings.Split(page, "\n")
	name := func(fence, first string) (string, bool) {
		if n, ok := strings.CutPrefix(first, "# "); ok && fence == "```yaml" {
			return n, true
		}
		return strings.CutPrefix(first, "// ")
	}
	rows, ex := Parse(lines, "Demo", "X", name)
	if strings.Join(rows, ",") != "X1,X2" || len(ex) != 2 || ex[0].ID != "x1" || ex[1].ID != "x2" {
		t.Fatalf("rows %v, examples %+v", rows, ex)
	}
	if ex[0].Files["book.yaml"] != "entries: []\n" || ex[1].Files["book.json"] != "{}\n" || len(ex[1].Files) != 1 {
		t.Errorf("files: %q, %q", ex[0].Files, ex[1].Files)
	}
	if lines[ex[0].OutStart] != "old" || ex[1].OutStart != ex[1].OutEnd {
		t.Errorf("listings at %d-%d and %d-%d", ex[0].OutStart, ex[0].OutEnd, ex[1].OutStart, ex[1].OutEnd)
	}
	if err := Check(rows, ex, "book.yaml"); err == nil || !strings.Contains(err.Error(), "example x2 has no book.yaml block") {
		t.Errorf("Check: %v", err)
	}
	if err := Check(rows[:1], ex); err == nil {
		t.Error("Check: two examples for one row")
	}
	path := filepath.Join(t.TempDir(), "page.md")
	if err := Rewrite(path, lines, map[int][]string{ex[0].OutStart: {"new", "lines"}, ex[1].OutStart: {"filled"}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := strings.Replace(strings.Replace(page, "```text\nold\n```", "```text\nnew\nlines\n```", 1), "```text\n```", "```text\nfilled\n```", 1)
	if string(got) != want {
		t.Errorf("rewritten:\n%s", got)
	}
}
