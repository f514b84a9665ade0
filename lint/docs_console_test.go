package lint_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/cmd"
)

// TestDocsConsole re-runs every ```console block of docs/rules.md: each
// "$ lore …" line runs in a fresh folder holding the ```yaml blocks before it
// whose first line is "# NAME" (written as NAME), and what lore prints
// (stdout, then stderr) must be the lines under it.
func TestDocsConsole(t *testing.T) {
	data, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	files := map[string]string{}
	ran := 0
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimSpace(lines[i])
		if fence != "```console" && fence != "```yaml" {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		body := lines[i+1 : end]
		if fence == "```yaml" {
			if len(body) > 0 && strings.HasPrefix(body[0], "# ") && len(strings.Fields(body[0])) == 2 {
				files[strings.Fields(body[0])[1]] = strings.Join(body, "\n") + "\n"
			}
			i = end
			continue
		}
		dir := t.TempDir()
		for name, text := range files {
			os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
		}
		t.Chdir(dir)
		for j := 0; j < len(body); j++ {
			cmdline, ok := strings.CutPrefix(body[j], "$ lore ")
			if !ok {
				continue
			}
			k := j + 1
			for k < len(body) && !strings.HasPrefix(body[k], "$ ") {
				k++
			}
			want := strings.Join(body[j+1:k], "\n")
			var out, errb bytes.Buffer
			cmd.Main(strings.Fields(cmdline), cmd.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
			got := strings.TrimSuffix(out.String()+errb.String(), "\n")
			if got != want {
				t.Errorf("docs/rules.md:%d: lore %s\n--- got\n%s\n--- docs\n%s", i+j+2, cmdline, got, want)
			}
			ran++
			j = k - 1
		}
		i = end
	}
	if ran == 0 {
		t.Error("no console block in docs/rules.md")
	}
}
