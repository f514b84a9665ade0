package cmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/canon"
)

const fmtUnformatted = `# the tavern
keywords:
    - tavern
content: The tavern.  # kept
section: chat-history
id: tavern
`

const fmtFormatted = `# the tavern
id: tavern
content: The tavern. # kept
section: chat-history
keywords: [tavern]
`

func fmtDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFmtModes(t *testing.T) {
	dir := fmtDir(t, map[string]string{"e.yaml": fmtUnformatted})
	p := filepath.Join(dir, "e.yaml")

	out, errOut, code := runCmd(t, IO{}, "fmt", p)
	if code != 0 || out != fmtFormatted || errOut != "" {
		t.Fatalf("stdout mode: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	if readFile(t, p) != fmtUnformatted {
		t.Fatal("printing changed the file")
	}

	out, _, code = runCmd(t, IO{}, "fmt", "--check", p)
	if code != 1 || out != p+"\n" {
		t.Fatalf("--check on an unformatted file: exit %d, stdout %q", code, out)
	}
	if readFile(t, p) != fmtUnformatted {
		t.Fatal("--check changed the file")
	}

	_, errOut, code = runCmd(t, IO{}, "fmt", "-w", p)
	if code != 0 || errOut != "formatted "+p+"\n" {
		t.Fatalf("-w: exit %d, stderr %q", code, errOut)
	}
	if got := readFile(t, p); got != fmtFormatted {
		t.Fatalf("-w wrote:\n%s", got)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Errorf("-w changed the mode to %v", st.Mode().Perm())
	}

	out, errOut, code = runCmd(t, IO{}, "fmt", "--check", p)
	if code != 0 || out != "" {
		t.Fatalf("--check on a formatted file: exit %d, stdout %q %q", code, out, errOut)
	}
	_, errOut, code = runCmd(t, IO{}, "fmt", "-w", p)
	if code != 0 || errOut != "" {
		t.Fatalf("-w on a formatted file: exit %d, stderr %q", code, errOut)
	}

	_, errOut, code = runCmd(t, IO{}, "fmt", "-w", "--check", p)
	if code != 2 || !strings.Contains(errOut, "-w and --check cannot be used together") {
		t.Fatalf("-w --check: exit %d %q", code, errOut)
	}
}

func TestFmtFolder(t *testing.T) {
	dir := fmtDir(t, map[string]string{
		"book/lorebook.yaml":   "settings: {contextTokens: 4096}\nname: Book\n",
		"book/entries/a.yaml":  fmtUnformatted,
		"book/entries/b.yaml":  "- id: b\n  content: B\n  section: examples\n",
		"book/entries/c.json":  `{"section": "examples", "id": "c", "content": "C"}`,
		"book/notes/other.txt": "not a lore file",
	})
	book := filepath.Join(dir, "book")
	out, _, code := runCmd(t, IO{}, "fmt", book)
	for _, f := range []string{"lorebook.yaml", "entries/a.yaml", "entries/b.yaml", "entries/c.json"} {
		if !strings.Contains(out, "# file: "+filepath.Join(book, filepath.FromSlash(f))+"\n") {
			t.Errorf("no header for %s in:\n%s", f, out)
		}
	}
	if code != 0 || !strings.Contains(out, "name: Book\nsettings: {contextTokens: 4096}\n") ||
		!strings.Contains(out, "{\n  \"id\": \"c\",\n  \"content\": \"C\",\n  \"section\": \"examples\"\n}\n") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, _, code = runCmd(t, IO{}, "fmt", "--check", book)
	want := strings.Join([]string{filepath.Join(book, "lorebook.yaml"), filepath.Join(book, "entries", "a.yaml"), filepath.Join(book, "entries", "c.json")}, "\n") + "\n"
	if code != 1 || out != want {
		t.Fatalf("--check: exit %d, got %q want %q", code, out, want)
	}
	if _, _, code = runCmd(t, IO{}, "fmt", "-w", book); code != 0 {
		t.Fatalf("-w: exit %d", code)
	}
	if out, _, code = runCmd(t, IO{}, "fmt", "--check", book); code != 0 {
		t.Fatalf("after -w, --check: exit %d %q", code, out)
	}
	if _, _, code := runCmd(t, IO{}, "validate", book); code != 0 {
		t.Fatalf("formatted folder does not validate: exit %d", code)
	}
}

func TestFmtRefusals(t *testing.T) {
	dir := fmtDir(t, map[string]string{
		"st.json":         `{"entries": {"0": {"uid": 0, "key": ["a"], "content": "x"}}}`,
		"anchors.yaml":    "- &a {id: a, section: examples, content: x}\n- {id: b, section: examples, content: x, tags: *t}\n",
		"broken.yaml":     "id: a\nsection: [\n",
		"schema.yaml":     "id: a\nsection: nowhere\ncontent: x\n",
		"ok.yaml":         fmtUnformatted,
		"transcript.yaml": "messages:\n  - {role: user, content: hi}\n",
	})
	at := func(n string) string { return filepath.Join(dir, n) }
	for _, tc := range []struct {
		file string
		code int
		want string
	}{
		{"st.json", 2, "is a sillytavern file, not lore's own format: lore fmt leaves it alone; convert it with 'lore import"},
		{"anchors.yaml", 2, ""},
		{"broken.yaml", 2, "broken.yaml:"},
		{"schema.yaml", 1, "has errors; fix them before formatting (nothing was written)"},
		{"transcript.yaml", 2, "is a transcript file: lore fmt formats lorebook files only"},
	} {
		// With a good file beside it: a refusal writes nothing at all.
		_, errOut, code := runCmd(t, IO{}, "fmt", "-w", at("ok.yaml"), at(tc.file))
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d (want %d), stderr %q", tc.file, code, tc.code, errOut)
		}
		if readFile(t, at("ok.yaml")) != fmtUnformatted {
			t.Fatalf("%s: the good file was written despite the refusal", tc.file)
		}
	}
	// A file with anchors is left alone with a note, and is no failure:
	// the other files are formatted, and the exit code is theirs.
	anchors := "name: A\nentries:\n  - &e {id: a, section: examples, content: x}\n"
	p := writeFile(t, "a.yaml", anchors)
	for _, mode := range []string{"-w", "--check"} {
		_, errOut, code := runCmd(t, IO{}, "fmt", mode, p)
		if code != 0 || !strings.Contains(errOut, "uses YAML anchors or merge keys; lore fmt leaves it alone (skipped)") || readFile(t, p) != anchors {
			t.Errorf("anchors %s: exit %d %q", mode, code, errOut)
		}
	}
}

// TestFmtWritePartial: when a write fails after others succeeded, fmt -w says
// exactly which files were written and which were not, and exits 2.
func TestFmtWritePartial(t *testing.T) {
	dir := fmtDir(t, map[string]string{"a.yaml": fmtUnformatted, "b.yaml": fmtUnformatted, "c.yaml": fmtUnformatted})
	a, b, c := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yaml")
	defer func(w func(string, []byte) error) { fmtWriteFile = w }(fmtWriteFile)
	fmtWriteFile = func(p string, data []byte) error {
		if p == b {
			return &canon.WriteError{Path: p, Err: errors.New("no space left on device")}
		}
		return canon.WriteFile(p, data)
	}
	_, errOut, code := runCmd(t, IO{}, "fmt", "-w", a, b, c)
	want := "formatted " + a + "\nlore: cannot write " + b + ": no space left on device; 1 of 3 files were formatted before it (listed above), these were not: " + b + ", " + c + "\n"
	if code != ExitUsage || errOut != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, errOut, want)
	}
	if readFile(t, a) != fmtFormatted || readFile(t, b) != fmtUnformatted || readFile(t, c) != fmtUnformatted {
		t.Error("files are not as reported")
	}
}
