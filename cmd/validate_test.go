package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, iox IO, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	iox.Stdin, iox.Stdout, iox.Stderr = strings.NewReader(""), &out, &errb
	code = Main(args, iox)
	return out.String(), errb.String(), code
}

func runValidateCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runCmd(t, IO{}, append([]string{"validate"}, args...)...)
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestValidateFixturesClean: every lorebook, transcript and variables file
// under fixtures/ validates without errors, each detected by its content.
// Files named as deliberately broken (fixtures/formats/card_bad_crc.png and
// the like, inputs for the importers' error tests) are left out.
func TestValidateFixturesClean(t *testing.T) {
	var paths []string
	sets, _ := os.ReadDir("../fixtures")
	for _, s := range sets {
		if !s.IsDir() {
			continue
		}
		items, _ := os.ReadDir(filepath.Join("../fixtures", s.Name()))
		for _, it := range items {
			p := filepath.Join("../fixtures", s.Name(), it.Name())
			if brokenOnPurpose(it.Name()) {
				continue
			}
			if it.IsDir() {
				if _, err := os.Stat(filepath.Join(p, "lorebook.yaml")); err != nil {
					continue // not a lorebook folder (e.g. import sources)
				}
			}
			paths = append(paths, p)
		}
	}
	if len(paths) < 5 {
		t.Fatalf("only %d fixture paths", len(paths))
	}
	out, errOut, code := runValidateCmd(t, paths...)
	if code != 0 || strings.Contains(out, ": error: ") || strings.Contains(out, ": warning: ") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func brokenOnPurpose(name string) bool {
	for _, w := range []string{"bad", "no_chara", "oversized", "truncated", "broken"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

const brokenBook = `name: Broken
entries:
  - id: tavern
    section: chathistory
    keyword: [tavern]
    content: The Sleeping Stag.
  - id: tavern
    section: examples
    content: x
`

func TestValidateBrokenText(t *testing.T) {
	p := writeFile(t, "book.yaml", brokenBook)
	out, errOut, code := runValidateCmd(t, p)
	want := p + `:4:14: error: entry "tavern": section must be one of system-presets, examples, chat-history, post-history, not "chathistory" (did you mean "chat-history"?) [schema]
` + p + `:5:5: error: entry "tavern": unknown field "keyword" (did you mean "keywords"?) [schema]
` + p + `:7:9: error: duplicate id "tavern": also the id of the entry at ` + p + `:3:9; ids must be unique in a lorebook [duplicate-id]
`
	if code != 1 || out != want || errOut != "3 errors in 1 file\n" {
		t.Errorf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr: %q", code, out, want, errOut)
	}
	before := brokenBook
	if after, _ := os.ReadFile(p); string(after) != before {
		t.Error("validate changed its input")
	}
}

func TestValidateJSON(t *testing.T) {
	out, errOut, code := runValidateCmd(t, "--format", "json", "../fixtures/eldoria/book")
	if code != 0 || out != "{\n  \"diagnostics\": []\n}\n" || errOut != "" {
		t.Errorf("clean: exit %d %q %q", code, out, errOut)
	}
	p := writeFile(t, "book.json", `{"entries": [{"id": "a", "section": "examples"}]}`)
	out, _, code = runValidateCmd(t, "--format", "json", p)
	var doc struct {
		Diagnostics []map[string]any `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 || len(doc.Diagnostics) != 1 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	want := map[string]any{"file": p, "line": 1.0, "column": 14.0, "severity": "error", "rule": "schema",
		"message": `entry "a": missing required field "content"`}
	for k, v := range want {
		if doc.Diagnostics[0][k] != v {
			t.Errorf("%s = %v, want %v", k, doc.Diagnostics[0][k], v)
		}
	}
}

func TestValidateUnreadable(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.yaml")
	out, _, code := runValidateCmd(t, missing)
	if code != 2 || out != missing+": error: no such file or folder [load]\n" {
		t.Errorf("missing: exit %d %q", code, out)
	}
	bad := writeFile(t, "bad.yaml", "key: value\n- item\n")
	out, _, code = runValidateCmd(t, bad)
	if code != 2 || out != bad+":2:1: error: invalid YAML: did not find expected key [load]\n" {
		t.Errorf("syntax: exit %d %q", code, out)
	}
	// An unreadable file beside findings still exits 2, and both are shown.
	broken := writeFile(t, "book.yaml", brokenBook)
	out, _, code = runValidateCmd(t, broken, bad)
	if code != 2 || strings.Count(out, "\n") != 4 {
		t.Errorf("mixed: exit %d\n%s", code, out)
	}
}

func TestValidateKinds(t *testing.T) {
	tr := writeFile(t, "chat.yaml", "messages:\n  - {role: narrator, content: hi}\n")
	out, _, code := runValidateCmd(t, tr)
	if code != 1 || !strings.Contains(out, `:2:12: error: messages[0].role must be one of user, assistant, system, not "narrator" [schema]`) {
		t.Errorf("transcript: exit %d %q", code, out)
	}
	vars := writeFile(t, "state.yaml", "gold: 3\nphase: act1\n")
	if out, _, code := runValidateCmd(t, vars); code != 0 || out != "" {
		t.Errorf("vars: exit %d %q", code, out)
	}
	// Forced kinds: a vars file read as a transcript lacks messages.
	out, _, code = runValidateCmd(t, "--kind", "transcript", vars)
	if code != 1 || !strings.Contains(out, `missing required field "messages"`) {
		t.Errorf("--kind transcript: exit %d %q", code, out)
	}
	jsonl := writeFile(t, "chat.jsonl", "{\"user_name\":\"You\"}\n{\"mes\":\"hi\",\"is_user\":true}\n")
	if out, _, code := runValidateCmd(t, jsonl); code != 0 || out != "" {
		t.Errorf("jsonl: exit %d %q", code, out)
	}
}

func TestValidateUsage(t *testing.T) {
	cases := [][]string{
		{},
		{"--kind", "book", "x"},
		{"--format", "xml", "x"},
		{"--color", "sometimes", "x"},
	}
	for _, args := range cases {
		_, errOut, code := runValidateCmd(t, args...)
		if code != 2 || !strings.HasPrefix(errOut, "lore: ") {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
}

func TestValidateColor(t *testing.T) {
	p := writeFile(t, "book.yaml", brokenBook)
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	out, _, _ := runCmd(t, IO{IsTerminal: true, Env: env(nil)}, "validate", p)
	if !strings.Contains(out, "\x1b[31;1merror") || !strings.Contains(out, "    section: chathistory\n") ||
		!strings.Contains(out, "^~~~~~~~~~~") {
		t.Errorf("terminal: no colour or snippet:\n%s", out)
	}
	// NO_COLOR and --color never take the colour away, not the source line
	// and caret a reader at a terminal needs.
	out, _, _ = runCmd(t, IO{IsTerminal: true, Env: env(map[string]string{"NO_COLOR": ""})}, "validate", p)
	if strings.Contains(out, "\x1b[") || !strings.Contains(out, "    section: chathistory\n") || !strings.Contains(out, "^~~~~~~~~~~") {
		t.Errorf("NO_COLOR: coloured, or no excerpt:\n%s", out)
	}
	out, _, _ = runCmd(t, IO{IsTerminal: true, Env: env(nil)}, "validate", "--color", "never", p)
	if strings.Contains(out, "\x1b[") || !strings.Contains(out, "^~~~~~~~~~~") {
		t.Errorf("--color never: coloured, or no excerpt:\n%s", out)
	}
	// In a pipe the output is the plain lines scripts read.
	out, _, _ = runCmd(t, IO{Env: env(nil)}, "validate", p)
	if strings.Contains(out, "\x1b[") || strings.Contains(out, "^~") {
		t.Errorf("pipe: coloured, or an excerpt:\n%s", out)
	}
	out, _, _ = runCmd(t, IO{}, "validate", "--color", "always", p)
	if !strings.Contains(out, "\x1b[") {
		t.Errorf("--color always: plain")
	}
}

// TestStdinExcerpt: the source line under a finding in what - read is that
// line, not the line of a file on disk that --stdin-filename names (an
// editor's unsaved buffer differs from it).
func TestStdinExcerpt(t *testing.T) {
	onDisk := writeFile(t, "book.yaml", "id: ok\nsection: examples\ncontent: saved\n")
	iox := IO{IsTerminal: true, Env: func(k string) (string, bool) { return "", k == "NO_COLOR" }}
	var out, errb bytes.Buffer
	iox.Stdin, iox.Stdout, iox.Stderr = strings.NewReader("id: ok\nsection: unsaved-typo\ncontent: x\n"), &out, &errb
	code := Main([]string{"validate", "-", "--stdin-filename", onDisk}, iox)
	if code != ExitFindings || !strings.Contains(out.String(), "section: unsaved-typo\n") || strings.Contains(out.String(), "section: examples") {
		t.Errorf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
}
