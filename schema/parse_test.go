package schema

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// writeTemp writes a generated input into the test's temporary folder.
func writeTemp(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func billionLaughs() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 9; i++ {
		b.WriteString("a" + itoa(i) + ": &a" + itoa(i) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + itoa(i-1))
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func itoa(i int) string { return string(rune('0' + i)) }

// TestParseDefences: every hostile or broken input fails fast with a clear,
// positioned message, and never panics.
func TestParseDefences(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                string // exact "pos: message" prefix
	}{
		{"empty", "a.yaml", "", "a.yaml: file is empty: expected YAML or JSON"},
		{"blank", "a.yaml", " \n\t\n", "a.yaml: file is empty: expected YAML or JSON"},
		{"comments only", "a.yaml", "# nothing\n# here\n", "a.yaml: file is empty: expected YAML or JSON (it holds only comments)"},
		{"empty json", "a.json", "\n", "a.json: file is empty: expected YAML or JSON"},
		{"nul byte", "a.yaml", "name: x\nid: a\x00b\n", "a.yaml:2:6: binary data (a NUL byte), not YAML or JSON text"},
		{"binary garbage", "a.bin", "\x89PNG\r\n\x1a\n\x00\x00", "a.bin:3:1: binary data (a NUL byte), not YAML or JSON text"},
		{"invalid utf8", "a.yaml", "name: x\ncontent: caf\xe9 au lait\n", "a.yaml:2:13: invalid UTF-8 (byte 0xe9): save the file as UTF-8"},
		{"invalid utf8 after multibyte", "a.json", "{\"名前\": \"\xff\"}", "a.json:1:9: invalid UTF-8 (byte 0xff): save the file as UTF-8"},
		{"deep json", "a.json", strings.Repeat("[", 300000), "a.json:1:1001: nesting is deeper than 1000 levels"},
		{"deep json objects", "a.json", strings.Repeat(`{"a":`, 300000), "a.json:1:5001: nesting is deeper than 1000 levels"},
		{"deep yaml flow", "a.yaml", "x: " + strings.Repeat("[", 300000), "a.yaml:1:1: nesting is deeper than 1000 levels"},
		{"deep yaml block", "a.yaml", strings.Repeat("- ", 200000) + "x\n", "a.yaml:1:1: nesting is deeper than 1000 levels"},
		{"yaml just over the cap", "a.yaml", strings.Repeat("[", 1200) + strings.Repeat("]", 1200), "a.yaml:1:1001: nesting is deeper than 1000 levels"},
		{"billion laughs", "a.yaml", billionLaughs(), "a.yaml:6:"},
		{"alias cycle", "a.yaml", "a: &a [x, *a]\n", "a.yaml:1:11: alias *a refers to the value that contains it (an endless loop)"},
		{"unknown alias", "a.yaml", "a: 1\nb: *nope\n", "a.yaml:2:4: invalid YAML: alias *nope names no anchor (&nope) defined before it"},
		{"second document", "a.yaml", "name: x\n---\nid: y\n", "a.yaml:3:1: a second YAML document starts here"},
		{"yaml parser error line", "a.yaml", "key: value\n- item\n", "a.yaml:2:1: invalid YAML: did not find expected key"},
		{"yaml nested parser error", "a.yaml", "a:\n  b: 1\n  c: 2\n - d\n", "a.yaml:4:2: invalid YAML: did not find expected key"},
		{"yaml unclosed flow", "a.yaml", "x: 1\ny: 2\nz: 3\nw: [a, b\n", "a.yaml:4:1: invalid YAML: did not find expected ',' or ']'"},
		{"yaml scanner error", "a.yaml", "a: 1\nb: 2\n c: 3\n", "a.yaml:3:2: invalid YAML: mapping values are not allowed in this context"},
		{"unclosed quote on line 40", "a.yaml", strings.Repeat("k: v\n", 39) + "content: \"it's open\nnext: 1\n", "a.yaml:40:10: invalid YAML: found unexpected end of stream (a quote opened here is never closed)"},
		{"unclosed quote after a closed one", "a.yaml", "a: 1\nb: ['x', 'it''s', \"y\\\"\", \"open]\n", "a.yaml:2:26: invalid YAML: found unexpected end of stream (a quote opened here is never closed)"},
		{"unclosed quote in flow entries", "a.yaml", "- {id: a, content: x}\n- {id: b, content: \"open}\n- {id: c}\n", "a.yaml:2:20: invalid YAML: found unexpected end of stream (a quote opened here is never closed)"},
		{"yaml tab", "a.yaml", "a:\n\tb: 2\n", "a.yaml:2:1: invalid YAML: a tab indents this line; YAML indentation must use spaces"},
		{"json syntax", "a.json", "{\n  \"a\": 1,\n  \"b\": }\n", "a.json:3:8: invalid JSON: unexpected '}' where a value should start"},
		{"json truncated", "a.json", "{\"a\": [1, 2", "a.json:1:12: invalid JSON: unexpected end of file (the file looks truncated)"},
		{"json trailing", "a.json", "{\"a\": 1}\n{\"b\": 2}\n", "a.json:2:1: invalid JSON: unexpected content after the end of the JSON value"},
		{"json by content", "noext", "  [1, 2,]", "noext:1:9: invalid JSON: a trailing comma before ']' is not allowed in JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, tc.file)
			if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, _, err := ParseFile(p)
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %v", d)
			}
			if err == nil {
				t.Fatalf("no error")
			}
			if _, ok := err.(*ParseError); !ok {
				t.Errorf("error is %T, want *ParseError", err)
			}
			got := strings.TrimPrefix(err.Error(), dir+string(filepath.Separator))
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestBillionLaughsMessage pins the whole message of the alias-bomb refusal.
func TestBillionLaughsMessage(t *testing.T) {
	p := writeTemp(t, "lol.yaml", billionLaughs())
	_, _, err := ParseFile(p)
	if err == nil || !strings.Contains(err.Error(), "YAML aliases here expand the document by over a million values (an alias bomb?)") {
		t.Fatalf("got %v", err)
	}
}

// TestAliasBytesRefused: one long text reused through an alias is a
// template up to aliasByteBudget of expansion and a bomb beyond it, refused
// at the entry where the budget runs out, whatever the count of values.
func TestAliasBytesRefused(t *testing.T) {
	text := strings.Repeat("lore ", 1<<20/5) // 1 MiB
	book := func(aliases int) string {
		var b strings.Builder
		b.WriteString("name: Bomb\nentries:\n  - id: e0\n    section: chat-history\n    content: &big \"" + text + "\"\n")
		for i := 1; i <= aliases; i++ {
			b.WriteString("  - {id: e" + strconv.Itoa(i) + ", section: chat-history, content: *big}\n")
		}
		return b.String()
	}
	if _, _, err := ParseFile(writeTemp(t, "ok.yaml", book(10))); err != nil {
		t.Errorf("10 MiB of expansion is a template, got %v", err)
	}
	_, _, err := ParseFile(writeTemp(t, "bomb.yaml", book(5000)))
	want := "bomb.yaml:22:5: YAML aliases here expand the document by over 16 MiB of text (an alias bomb?); lore does not expand it"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got  %v\nwant …%s", err, want)
	}
}

// TestSpecialFilesRefused: a named pipe would block the read forever (no
// writer), so it is refused from its stat, as folders are.
func TestSpecialFilesRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.yaml")
	if err := mkfifo(p); err != nil {
		t.Skip("no named pipes here:", err)
	}
	for name, load := range map[string]func(string) error{
		"ParseFile":      func(p string) error { _, _, err := ParseFile(p); return err },
		"Load":           func(p string) error { _, _, err := Load(p); return err },
		"LoadTranscript": func(p string) error { _, _, err := LoadTranscript(p); return err },
		"LoadVars":       func(p string) error { _, _, err := LoadVars(p); return err },
		"ReadBytes":      func(p string) error { _, err := ReadBytes(p); return err },
	} {
		err := load(p)
		if err == nil || !strings.HasSuffix(err.Error(), "pipe.yaml: is a named pipe (FIFO), not a regular file: lore reads lorebooks from files") {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// TestHugeFileRefusedWithoutReading uses a sparse file: refusing it must
// come from the stat, or reading 300 MB of zeros would show in the time.
func TestHugeFileRefusedWithoutReading(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.yaml")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(300 << 20); err != nil {
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	start := time.Now()
	_, _, err = ParseFile(p)
	if err == nil || !strings.HasSuffix(err.Error(), "huge.yaml: file is 300 MiB, over the 64 MiB limit: lorebooks are text; is this the right file?") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	// The folder loader and the other loaders go through the same check.
	if _, _, err := LoadVars(p); err == nil || !strings.Contains(err.Error(), "over the 64 MiB limit") {
		t.Errorf("LoadVars: %v", err)
	}
}

func TestMissingFile(t *testing.T) {
	_, _, err := Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if err == nil || !strings.HasSuffix(err.Error(), "nope.yaml: no such file or folder") {
		t.Fatalf("got %v", err)
	}
}

// TestJSONPositionsMatchYAML: JSON is YAML, so yaml.v3's own positions for a
// JSON text are the reference for the hand-built tree.
func TestJSONPositionsMatchYAML(t *testing.T) {
	inputs := []string{
		`{"id": "tavern", "keywords": ["tavern", "inn"], "depth": null, "n": 1.5e3, "ok": true}`,
		"{\n  \"名前\": \"千代\",\n  \"list\": [\n    1,\n    {\"k\": \"ｻｸﾗ\", \"e\": \"caf\\u00e9\"},\n    []\n  ],\n\t\"x\": {}\n}\n",
		"[\n  {\"id\": \"a\", \"content\": \"line\\nnext\"},\n  {\"id\": \"b\",\"position\":-2}\n]",
	}
	for _, in := range inputs {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(in), &doc); err != nil {
			t.Fatal(err)
		}
		got, err := parseJSON("x.json", []byte(in), 0, len(in))
		if err != nil {
			t.Fatal(err)
		}
		comparePositions(t, doc.Content[0], got)
	}
}

func comparePositions(t *testing.T, want, got *yaml.Node) {
	t.Helper()
	if want.Line != got.Line || want.Column != got.Column || want.Kind != got.Kind {
		t.Errorf("node %q: got %d:%d kind %d, want %d:%d kind %d", want.Value, got.Line, got.Column, got.Kind, want.Line, want.Column, want.Kind)
		return
	}
	if want.Kind == yaml.ScalarNode && (want.Value != got.Value || want.ShortTag() != got.ShortTag()) {
		t.Errorf("scalar at %d:%d: got %q %s, want %q %s", got.Line, got.Column, got.Value, got.ShortTag(), want.Value, want.ShortTag())
	}
	if len(want.Content) != len(got.Content) {
		t.Errorf("at %d:%d: %d children, want %d", got.Line, got.Column, len(got.Content), len(want.Content))
		return
	}
	for i := range want.Content {
		comparePositions(t, want.Content[i], got.Content[i])
	}
}

func TestToValue(t *testing.T) {
	root, err := ParseBytes("x.yaml", []byte("base: &b {role: lore, n: 0x10}\nentry:\n  <<: *b\n  n: 3\n  tags: [a, 1, true, null, 2.5, 2001-12-14]\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := ToValue(root).(map[string]any)["entry"].(map[string]any)
	if got["role"] != "lore" || got["n"] != 3.0 {
		t.Errorf("merge: %v", got)
	}
	tags := got["tags"].([]any)
	want := []any{"a", 1.0, true, nil, 2.5, "2001-12-14"}
	for i := range want {
		if tags[i] != want[i] {
			t.Errorf("tags[%d] = %#v, want %#v", i, tags[i], want[i])
		}
	}
	if v := ToValue(root).(map[string]any)["base"].(map[string]any)["n"]; v != 16.0 {
		t.Errorf("hex int: %v", v)
	}
}
