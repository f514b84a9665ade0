package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/golden"
)

const testingDocs = "../docs/testing.md"

// docBlock is a fenced block of docs/testing.md: a ```yaml file (its first
// line "# PATH" says where it is saved) or a ```console session ("$ lore …"
// lines, each followed by its output), by line range (between the fences).
type docBlock struct {
	lang       string
	start, end int // lines[start:end] are the block's lines
}

func docBlocks(lines []string) []docBlock {
	var out []docBlock
	for i := 0; i < len(lines); i++ {
		lang, ok := strings.CutPrefix(lines[i], "```")
		if !ok || lang == "" {
			continue
		}
		j := i + 1
		for j < len(lines) && lines[j] != "```" {
			j++
		}
		out = append(out, docBlock{lang: lang, start: i + 1, end: j})
		i = j
	}
	return out
}

// splitArgs splits a command line as a shell would for the simple commands of
// the docs: words, 'single' and "double" quoted.
func splitArgs(s string) []string {
	var args []string
	var cur strings.Builder
	quote, inWord := rune(0), false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args
}

// TestTestingDocs re-runs docs/testing.md in a copy of fixtures/: every YAML
// block is saved at the path of its first line, every "$ lore" command runs in
// order, and its output (stdout, then stderr) must be the lines under it.
// -update rewrites those lines.
func TestTestingDocs(t *testing.T) {
	data, err := os.ReadFile(testingDocs)
	if err != nil {
		t.Fatal(err)
	}
	docsAbs, _ := filepath.Abs(testingDocs)
	lines := strings.Split(string(data), "\n")
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../fixtures")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)

	var rewritten []string
	last := 0
	commands := 0
	for _, b := range docBlocks(lines) {
		switch b.lang {
		case "yaml":
			path, ok := strings.CutPrefix(lines[b.start], "# ")
			if !ok || b.start == b.end {
				t.Fatalf("docs/testing.md:%d: a YAML example starts with a line \"# PATH\" saying where it is saved", b.start+1)
			}
			// The "# PATH" line stays in the file, so that the lines in
			// the output are the lines of the block as the page shows it.
			text := strings.Join(lines[b.start:b.end], "\n") + "\n"
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		case "console":
			rewritten = append(rewritten, lines[last:b.start]...)
			last = b.end
			for i := b.start; i < b.end; {
				cmdLine, ok := strings.CutPrefix(lines[i], "$ lore ")
				if !ok {
					t.Fatalf("docs/testing.md:%d: a console block runs \"$ lore …\" commands, not %q", i+1, lines[i])
				}
				j := i + 1
				for j < b.end && !strings.HasPrefix(lines[j], "$ ") {
					j++
				}
				var out, errOut bytes.Buffer
				Main(splitArgs(cmdLine), IO{Stdout: &out, Stderr: &errOut})
				commands++
				got := strings.TrimSuffix(out.String()+errOut.String(), "\n")
				want := strings.Join(lines[i+1:j], "\n")
				if got != want && !golden.Update() {
					t.Errorf("docs/testing.md:%d: lore %s: output differs (go test ./cmd -run TestTestingDocs -update rewrites it)\n--- got\n%s\n--- docs\n%s",
						i+1, cmdLine, got, want)
				}
				rewritten = append(rewritten, lines[i])
				if got != "" {
					rewritten = append(rewritten, strings.Split(got, "\n")...)
				}
				i = j
			}
		default:
			if b.lang != "text" {
				t.Errorf("docs/testing.md:%d: a ```%s block: examples are ```yaml files and ```console sessions (```text for the rest)", b.start, b.lang)
			}
			// A ```text block whose first line is "# PATH" is a file too (a reply).
			if path, ok := strings.CutPrefix(lines[b.start], "# "); ok && b.start < b.end && !strings.Contains(path, " ") {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(strings.Join(lines[b.start:b.end], "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if commands == 0 {
		t.Fatal("docs/testing.md runs no command")
	}
	if golden.Update() {
		rewritten = append(rewritten, lines[last:]...)
		if err := os.WriteFile(docsAbs, []byte(strings.Join(rewritten, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
