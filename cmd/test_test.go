package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testProject writes files (path → text) into a temporary folder and
// returns it.
func testProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	okBook        = "entries: [{id: a, section: chat-history, keywords: [apple], content: An apple.}]\n"
	erroneousBook = "entries: [{id: a, section: chathistory, content: x}]\n"
	okTest        = "lorebook: ../book.yaml\ncases: [{name: apple, transcript: [{role: user, content: an apple}], expect: {active: [a]}}]\n"
	failTest      = "lorebook: ../book.yaml\ncases: [{name: pear, transcript: [{role: user, content: a pear}], expect: {active: [a]}}]\n"
)

func TestTestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		args  []string
		code  int
		out   string // in stdout, or stderr when the code is 2 and stdout is empty
	}{
		{"passes", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest}, nil, ExitOK, "1 passed, 0 failed"},
		{"fails", map[string]string{"book.yaml": okBook, "tests/t.yaml": failTest}, nil, ExitFindings, "0 passed, 1 failed"},
		{"lorebook with errors", map[string]string{"book.yaml": erroneousBook, "tests/t.yaml": okTest}, nil, ExitFindings, "1 could not run"},
		{"missing lorebook", map[string]string{"tests/t.yaml": okTest}, nil, ExitUsage, "book.yaml: error: no such file"},
		{"invalid test file", map[string]string{"book.yaml": okBook, "tests/t.yaml": "lorebook: ../book.yaml\ncases: []\n"}, nil, ExitUsage, "tests/t.yaml:2:8: error: cases: is empty: a test file needs at least one case [test]"},
		{"unreadable test file", map[string]string{"book.yaml": okBook, "tests/t.yaml": "lorebook: [\n"}, nil, ExitUsage, "invalid YAML"},
		{"no tests", map[string]string{"book.yaml": okBook}, nil, ExitUsage, "holds no test files"},
		{"run matches none", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest}, []string{"--run", "pear"}, ExitUsage, `--run "pear" matches no case`},
		{"run matches", map[string]string{"book.yaml": okBook, "tests/t.yaml": strings.Replace(okTest, "}}]", "}}, {name: pear, expect: {inactive: [a]}}]", 1)}, []string{"--run", "^pe"}, ExitOK, "1 passed, 0 failed"},
		{"bad format", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest}, []string{"--format", "xml"}, ExitUsage, "unknown format"},
		{"bad engine", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest}, []string{"--engine", "nope"}, ExitUsage, "unknown engine"},
		{"engine flag", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest}, []string{"--engine", "lore"}, ExitOK, "1 passed"},
		{"no room for the prompt", map[string]string{"book.yaml": okBook, "tests/t.yaml": strings.Replace(okTest, "name: apple,", "name: apple, settings: {contextTokens: 500},", 1)}, nil, ExitUsage,
			"tests/t.yaml:2:49: error: the response reserve (1024 tokens) is not below the context window (500 tokens): nothing is left for the prompt [test]"},
		{"bad color", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest}, []string{"--color", "pink"}, ExitUsage, "--color must be"},
		{"config flag", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest, "small.lore.yaml": "contextTokens: 500\n"}, []string{"--config", "small.lore.yaml"}, ExitUsage,
			"the response reserve (1024 tokens) is not below the context window (500 tokens)"},
		{"config flag over the found one", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest, ".lore.yaml": "contextTokens: 500\n", "big.lore.yaml": "contextTokens: 4000\n"}, []string{"--config", "big.lore.yaml"}, ExitOK, "1 passed"},
		{"missing config", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest}, []string{"--config", "none.lore.yaml"}, ExitUsage, "none.lore.yaml: error: no such file"},
		{"config with errors", map[string]string{"book.yaml": okBook, "tests/t.yaml": okTest, "bad.lore.yaml": "rules: {nope: off}\n"}, []string{"--config", "bad.lore.yaml"}, ExitUsage, "bad.lore.yaml:1:9: error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testProject(t, tc.files)
			t.Chdir(dir)
			out, errOut, code := runLintCmd(t, append([]string{"test"}, tc.args...)...)
			got := out
			if code == ExitUsage && strings.TrimSpace(out) == "" || !strings.Contains(out, tc.out) {
				got = out + errOut
			}
			if code != tc.code || !strings.Contains(got, tc.out) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant %q", code, tc.code, out, errOut, tc.out)
			}
		})
	}
}

// A lorebook named on the command line stands for the tests beside it that
// name it, not for the others.
func TestTestLorebookPath(t *testing.T) {
	dir := testProject(t, map[string]string{
		"book.yaml":    okBook,
		"other.yaml":   okBook,
		"tests/t.yaml": okTest,
		"tests/o.yaml": strings.Replace(failTest, "../book.yaml", "../other.yaml", 1),
	})
	t.Chdir(dir)
	out, errOut, code := runLintCmd(t, "test", "book.yaml")
	if code != ExitOK || !strings.HasSuffix(out, "1 passed, 0 failed\n") {
		t.Errorf("book.yaml: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runLintCmd(t, "test", "other.yaml")
	if code != ExitFindings || !strings.HasSuffix(out, "0 passed, 1 failed\n") {
		t.Errorf("other.yaml: exit %d\n%s%s", code, out, errOut)
	}
	if err := os.Remove("tests/o.yaml"); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runLintCmd(t, "test", "other.yaml")
	if code != ExitUsage || !strings.Contains(out, "no test file names this lorebook") {
		t.Errorf("other.yaml without tests: exit %d\n%s%s", code, out, errOut)
	}
}

// -u writes only snapshots, never the test files or the lorebook.
func TestTestUpdateWritesOnlySnapshots(t *testing.T) {
	test := "lorebook: ../book.yaml\ncases: [{name: s, transcript: [{role: user, content: an apple}], expect: {snapshot: s}}]\n"
	dir := testProject(t, map[string]string{"book.yaml": okBook, "tests/t.yaml": test})
	t.Chdir(dir)
	before := map[string]string{}
	_ = filepath.Walk(".", func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			before[p] = string(b)
		}
		return nil
	})
	out, errOut, code := runLintCmd(t, "test", "-u")
	if code != ExitOK || !strings.Contains(out, "new snapshot: tests/__snapshots__/s.txt") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for p, text := range before {
		if b, _ := os.ReadFile(p); string(b) != text {
			t.Errorf("%s changed", p)
		}
	}
	snap, err := os.ReadFile(filepath.Join("tests", "__snapshots__", "s.txt"))
	if err != nil || !strings.Contains(string(snap), "An apple.") {
		t.Errorf("snapshot: %v\n%s", err, snap)
	}
}
