package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/cmd"
)

// TestReadmeConsole re-runs every ```console block of README.md and compares
// what lore prints (stdout, then stderr) with the lines under each "$ lore …"
// command, so the README cannot drift from the program. In the expected text
// a line "…" stands for any number of lines, and a line ending in "…" for any
// line that starts with the text before it. A file a command reads that the
// repository does not have comes from the README itself: the ```yaml block
// before it whose first line is "# NAME". Each block runs in a fresh folder
// where fixtures/ is the repository's.
func TestReadmeConsole(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	fixtures, err := filepath.Abs("fixtures")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	files := map[string]string{} // "# NAME" yaml blocks seen so far
	blocks := 0
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimSpace(lines[i])
		if fence != "```console" && fence != "```yaml" {
			continue
		}
		start := i + 1
		end := start
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		body := lines[start:end]
		i = end
		if fence == "```yaml" {
			if name, ok := strings.CutPrefix(strings.TrimSpace(body[0]), "# "); ok && !strings.Contains(name, " ") {
				files[name] = strings.Join(body, "\n") + "\n"
			}
			continue
		}
		blocks++
		dir := t.TempDir()
		if err := os.Symlink(fixtures, filepath.Join(dir, "fixtures")); err != nil {
			t.Fatal(err)
		}
		runConsoleBlock(t, dir, start+1, body, files)
	}
	if blocks < 5 {
		t.Fatalf("found %d console blocks in README.md", blocks)
	}
}

// runConsoleBlock runs the commands of one block (its first line is README
// line first) in dir.
func runConsoleBlock(t *testing.T, dir string, first int, body []string, files map[string]string) {
	t.Helper()
	t.Chdir(dir)
	for k := 0; k < len(body); k++ {
		line, ok := strings.CutPrefix(body[k], "$ ")
		if !ok {
			t.Errorf("README.md:%d: a console block holds $ commands and their output; %q has no command", first+k, body[k])
			continue
		}
		want := []string{}
		for k+1 < len(body) && !strings.HasPrefix(body[k+1], "$ ") {
			k++
			want = append(want, body[k])
		}
		args := strings.Fields(line)
		if args[0] != "lore" || strings.ContainsAny(line, `"'|;&`) {
			t.Errorf("README.md:%d: only plain lore commands can be checked (use a ```sh block for others): %s", first, line)
			continue
		}
		args = args[1:]
		redirect := ""
		if n := len(args); n >= 2 && args[n-2] == ">" {
			redirect, args = args[n-1], args[:n-2]
		}
		for _, a := range args {
			if text, ok := files[a]; ok {
				if _, err := os.Stat(a); os.IsNotExist(err) {
					if err := os.WriteFile(a, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		var stdout, stderr bytes.Buffer
		code := cmd.Main(args, cmd.IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Env: func(k string) (string, bool) { return "", k == "NO_COLOR" }})
		if code == cmd.ExitUsage {
			t.Errorf("README.md:%d: %s: exit 2\n%s", first+k, line, stderr.String())
			continue
		}
		out := stdout.String()
		if redirect != "" {
			if err := os.WriteFile(redirect, stdout.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			out = ""
		}
		got := strings.Split(strings.TrimRight(out+stderr.String(), "\n"), "\n")
		if !matchLines(want, got) {
			t.Errorf("README.md:%d: %s: the output differs from the README\n--- got\n%s\n--- README\n%s",
				first+k-len(want), line, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// matchLines matches got against want, where a want line "…" matches any
// number of lines and a want line ending in "…" matches a line it starts.
func matchLines(want, got []string) bool {
	for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
		want = want[:len(want)-1]
	}
	if len(want) == 0 {
		return len(got) == 0 || len(got) == 1 && got[0] == ""
	}
	if want[0] == "…" {
		for skip := 0; skip <= len(got); skip++ {
			if matchLines(want[1:], got[skip:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	w, g := want[0], got[0]
	if prefix, ok := strings.CutSuffix(w, "…"); ok && prefix != "" {
		if !strings.HasPrefix(g, strings.TrimRight(prefix, " ")) {
			return false
		}
	} else if w != g {
		return false
	}
	return matchLines(want[1:], got[1:])
}

// TestMatchLines: the elisions mean what the README's readers take them to.
func TestMatchLines(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb", true},
		{"a\nb", "a\nc", false},
		{"a\n…\nd", "a\nb\nc\nd", true},
		{"a\n…\nd", "a\nd", true},
		{"a\n…\nd", "a\nb\nc", false},
		{"a long …", "a long line", true},
		{"a long …", "another", false},
		{"a\n…", "a\nb\nc", true},
		{"a", "a\nb", false},
	} {
		if got := matchLines(strings.Split(tc.want, "\n"), strings.Split(tc.got, "\n")); got != tc.ok {
			t.Errorf("want %q against %q: %v", tc.want, tc.got, got)
		}
	}
}
