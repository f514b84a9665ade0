// Package consoledoc re-runs the ```console blocks of lore's documents (the
// README, docs/rules.md, docs/formats-replies.md) against the real command, for tests: a document whose
// examples drift from the program fails them.
package consoledoc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/cmd"
)

// Run re-runs every ```console block of the markdown file doc and compares
// what lore prints (stdout, then stderr) with the lines under each "$ lore …"
// command, so the document cannot drift from the program. In the expected
// text a line "…" stands for any number of lines, and a line ending in "…"
// for any line that starts with the text before it. A file a command reads
// that is not there comes from the document itself: the ```yaml block before
// it whose first line is "# NAME" (or a ```text block so named: a reply
// file, for docs/formats-replies.md). Each block runs in a fresh folder, where
// fixtures/ is the folder fixtures names (when it is not "").
func Run(t *testing.T, doc, fixtures string, minBlocks int) {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if fixtures != "" {
		if fixtures, err = filepath.Abs(fixtures); err != nil {
			t.Fatal(err)
		}
	}
	name := filepath.Base(doc)
	lines := strings.Split(string(data), "\n")
	files := map[string]string{} // "# NAME" yaml blocks seen so far
	blocks := 0
	for i := 0; i < len(lines); i++ {
		// A fence of more backticks (````text) holds lines of three (a
		// reply with a ``` block in it); it ends at its own backticks.
		open := strings.TrimSpace(lines[i])
		ticks := open[:len(open)-len(strings.TrimLeft(open, "`"))]
		fence := "```" + open[len(ticks):]
		if len(ticks) < 3 || fence != "```console" && fence != "```yaml" && fence != "```text" {
			continue
		}
		start := i + 1
		end := start
		for end < len(lines) && strings.TrimSpace(lines[end]) != ticks {
			end++
		}
		body := lines[start:end]
		i = end
		if fence != "```console" {
			if name, ok := strings.CutPrefix(strings.TrimSpace(body[0]), "# "); ok && !strings.Contains(name, " ") {
				files[name] = strings.Join(body, "\n") + "\n"
			}
			continue
		}
		blocks++
		dir := t.TempDir()
		if fixtures != "" {
			if err := os.Symlink(fixtures, filepath.Join(dir, "fixtures")); err != nil {
				t.Fatal(err)
			}
		}
		runBlock(t, dir, name, start+1, body, files)
	}
	if blocks < minBlocks {
		t.Fatalf("found %d console blocks in %s, want %d or more", blocks, name, minBlocks)
	}
}

// runBlock runs the commands of one block (its first line is line first of
// the document name) in dir.
func runBlock(t *testing.T, dir, name string, first int, body []string, files map[string]string) {
	t.Helper()
	t.Chdir(dir)
	for k := 0; k < len(body); k++ {
		line, ok := strings.CutPrefix(body[k], "$ ")
		if !ok {
			t.Errorf("%s:%d: a console block holds $ commands and their output; %q has no command", name, first+k, body[k])
			continue
		}
		want := []string{}
		for k+1 < len(body) && !strings.HasPrefix(body[k+1], "$ ") {
			k++
			want = append(want, body[k])
		}
		args := strings.Fields(line)
		if args[0] != "lore" || strings.ContainsAny(line, `"'|;&`) {
			t.Errorf("%s:%d: only plain lore commands can be checked (use a ```sh block for others): %s", name, first, line)
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
			t.Errorf("%s:%d: %s: exit 2\n%s", name, first+k, line, stderr.String())
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
		if !MatchLines(want, got) {
			t.Errorf("%s:%d: %s: the output differs from the document\n--- got\n%s\n--- %s\n%s",
				name, first+k-len(want), line, strings.Join(got, "\n"), name, strings.Join(want, "\n"))
		}
	}
}

// matchLines matches got against want, where a want line "…" matches any
// number of lines and a want line ending in "…" matches a line it starts.
func MatchLines(want, got []string) bool {
	for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
		want = want[:len(want)-1]
	}
	if len(want) == 0 {
		return len(got) == 0 || len(got) == 1 && got[0] == ""
	}
	if want[0] == "…" {
		for skip := 0; skip <= len(got); skip++ {
			if MatchLines(want[1:], got[skip:]) {
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
	return MatchLines(want[1:], got[1:])
}
