package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/internal/golden"
	"github.com/lorekit/lore/schema"
)

const docsPath = "../docs/rules.md"

// docExample is one ```yaml example of a rule section of docs/rules.md and the
// ```text block after it, by line range (the lines between the fences).
type docExample struct {
	rule             string
	yaml             string
	outStart, outEnd int
	yamlLine         int
	// console is the ```console block that follows instead of a ```text
	// one (its command and output; TestDocsConsole runs it).
	console []string
}

func docExamples(t *testing.T, lines []string) []docExample {
	t.Helper()
	var out []docExample
	rule := ""
	for i := 0; i < len(lines); i++ {
		if h, ok := strings.CutPrefix(lines[i], "## "); ok {
			rule = ""
			if byID(strings.TrimSpace(h)) != nil {
				rule = strings.TrimSpace(h)
			}
			continue
		}
		if rule == "" || strings.TrimSpace(lines[i]) != "```yaml" {
			continue
		}
		ex := docExample{rule: rule, yamlLine: i + 2}
		j := i + 1
		for j < len(lines) && lines[j] != "```" {
			j++
		}
		ex.yaml = strings.Join(lines[i+1:j], "\n") + "\n"
		k := j + 1
		for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
			k++
		}
		if k < len(lines) && lines[k] == "```console" {
			// The command and its output, which TestDocsConsole runs.
			end := k + 1
			for end < len(lines) && lines[end] != "```" {
				end++
			}
			ex.console = lines[k+1 : end]
			out = append(out, ex)
			i = end
			continue
		}
		if k >= len(lines) || lines[k] != "```text" {
			t.Fatalf("docs/rules.md:%d: the %s example needs a ```text block of its output (or a ```console block) after it", i+1, rule)
		}
		end := k + 1
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		ex.outStart, ex.outEnd = k+1, end
		out = append(out, ex)
		i = end
	}
	return out
}

// TestDocsOffRulesShowTheirFlag: the example of a rule that is off by
// default is the command that turns it on and what it prints; a bare output
// block would be output a reader running "lore lint book.yaml" never sees.
func TestDocsOffRulesShowTheirFlag(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range docExamples(t, strings.Split(string(data), "\n")) {
		if r := byID(ex.rule); r == nil || !r.Off {
			continue
		}
		if len(ex.console) == 0 || !strings.Contains(ex.console[0], "--enable "+ex.rule) {
			t.Errorf("docs/rules.md:%d: %s is off by default: show its example as a ```console block of \"$ lore lint book.yaml --enable %s\"",
				ex.yamlLine, ex.rule, ex.rule)
		}
	}
}

// TestDocsExamples re-runs every example of docs/rules.md as book.yaml and
// compares the output with the ```text block under it; -update rewrites those
// blocks. Every rule must have an example that fires it.
func TestDocsExamples(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	examples := docExamples(t, lines)
	docsAbs, _ := filepath.Abs(docsPath)
	tmp := t.TempDir()
	t.Chdir(tmp)
	fired := map[string]bool{}
	outputs := make([][]string, len(examples))
	for i, ex := range examples {
		if ex.console != nil {
			fired[ex.rule] = fired[ex.rule] || strings.Contains(strings.Join(ex.console, "\n"), "["+ex.rule+"]")
			continue
		}
		if err := os.WriteFile("book.yaml", []byte(ex.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		book, ds, err := schema.Load("book.yaml")
		if err != nil {
			t.Fatalf("docs/rules.md:%d: %v", ex.yamlLine, err)
		}
		cfg := &Config{Rules: map[string]diag.Severity{}}
		if r := byID(ex.rule); r != nil && r.Off {
			cfg.Rules[r.ID] = r.Severity // the example shows a rule that is off by default
		}
		got := format(Fold(runWith(book, nil, cfg, ds)))
		if strings.Contains(got, "["+ex.rule+"]") {
			fired[ex.rule] = true
		}
		outputs[i] = strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if got == "" {
			outputs[i] = nil
		}
		want := strings.Join(lines[ex.outStart:ex.outEnd], "\n")
		if !golden.Update() && strings.TrimSuffix(got, "\n") != want {
			t.Errorf("docs/rules.md:%d (%s): output differs\n--- got\n%s--- docs\n%s\n(run go test ./lint -run TestDocsExamples -update)",
				ex.yamlLine, ex.rule, got, want)
		}
	}
	if golden.Update() {
		var b []string
		last := 0
		for i, ex := range examples {
			if ex.console != nil {
				continue
			}
			b = append(b, lines[last:ex.outStart]...)
			b = append(b, outputs[i]...)
			last = ex.outEnd
		}
		b = append(b, lines[last:]...)
		if err := os.WriteFile(docsAbs, []byte(strings.Join(b, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range Rules() {
		if !fired[r.ID] {
			t.Errorf("docs/rules.md: rule %s has no example that fires it", r.ID)
		}
	}
}
