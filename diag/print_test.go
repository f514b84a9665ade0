package diag

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/golden"
)

func sample() []Diagnostic {
	return Sort([]Diagnostic{
		{File: "book/entries/tavern.yaml", Line: 3, Column: 14, Severity: Error, Rule: "schema",
			Message: `entry "tavern": section must be one of system-presets, examples, chat-history, post-history, not "chathistory"`},
		{File: "book/entries/tavern.yaml", Line: 5, Column: 15, Severity: Warning, Rule: "keyword-collision", Message: `keyword "inn" is also on "maren"`},
		{File: "book/entries/sakura.yaml", Line: 2, Column: 14, Severity: Info, Rule: "whole-word-cjk", Message: `"桜の木" has no word boundaries`},
		{File: "book/lorebook.yaml", Severity: Error, Rule: "load", Message: "file is empty: expected YAML or JSON"},
	})
}

var sources = map[string][]string{
	"book/entries/tavern.yaml": {"id: tavern", "name: Tavern", "section: chathistory # typo", "content: x", "keywords: [tavern, \"inn\"]"},
	"book/entries/sakura.yaml": {"id: sakura", "keywords: [桜の木, ｻｸﾗ]"},
}

func source(file string, line int) (string, bool) {
	ls, ok := sources[file]
	if !ok || line < 1 || line > len(ls) {
		return "", false
	}
	return ls[line-1], true
}

func printGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func TestPrinters(t *testing.T) {
	cases := []struct {
		golden, format string
		opts           Options
	}{
		{"text.out", "text", Options{Source: source}},
		{"text-color.out", "text", Options{Color: true, Source: source}},
		{"json.out", "json", Options{}},
	}
	for _, c := range cases {
		p, err := NewPrinter(c.format, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := p.Print(&b, sample()); err != nil {
			t.Fatal(err)
		}
		printGolden(t, c.golden, b.Bytes())
	}
}

func TestTextPlainExact(t *testing.T) {
	p, _ := NewPrinter("text", Options{})
	var b bytes.Buffer
	p.Print(&b, sample()[:1])
	want := "book/entries/sakura.yaml:2:14: info: \"桜の木\" has no word boundaries [whole-word-cjk]\n"
	if b.String() != want {
		t.Errorf("got %q", b.String())
	}
}

func TestJSONEmptyIsList(t *testing.T) {
	p, _ := NewPrinter("json", Options{})
	for _, ds := range [][]Diagnostic{nil, {}} {
		var b bytes.Buffer
		p.Print(&b, ds)
		if b.String() != "{\n  \"diagnostics\": []\n}\n" {
			t.Errorf("got %q", b.String())
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	if _, err := NewPrinter("xml", Options{}); err == nil || !strings.Contains(err.Error(), `unknown format "xml" (want `) {
		t.Errorf("got %v", err)
	}
}

func TestSnippet(t *testing.T) {
	cases := []struct {
		line  string
		col   int
		caret string
	}{
		{"section: chathistory # typo", 10, "         ^~~~~~~~~~~"},
		{`keywords: [tavern, "inn"]`, 20, `                   ^~~~~`},
		{"keywords: [桜の木, ｻｸﾗ]", 12, "           ^~~~~~"},
		{"keywords: [桜の木, ｻｸﾗ]", 17, "                   ^~~"},
		{"\tname: x", 8, "\t      ^"},
		{"short", 40, "     ^"},
		{"key: value", 1, "^~~"},
	}
	for _, c := range cases {
		_, caret := snippet(c.line, c.col)
		if caret != c.caret {
			t.Errorf("%q col %d:\ngot  %q\nwant %q", c.line, c.col, caret, c.caret)
		}
	}
}

// TestSnippetWindow: a line over 120 columns is cut around the column, with
// "…" on each cut side, never wider than 120 cells, the caret still under
// the token.
func TestSnippetWindow(t *testing.T) {
	long := strings.Repeat("abcdefghij", 50) // 500 columns
	cjk := strings.Repeat("桜", 300)          // 600 cells
	cases := []struct {
		line       string
		col        int
		src, caret string
	}{
		{long, 1, long[:119] + "…", "^" + strings.Repeat("~", 118)},
		{`"k": "` + long + `"`, 250, "…" + (`"k": "` + long)[209:327] + "…", strings.Repeat(" ", 41) + "^" + strings.Repeat("~", 77)},
		{long, 500, "…" + long[381:], strings.Repeat(" ", 119) + "^"},
		{long, 60, "…" + long[19:137] + "…", strings.Repeat(" ", 41) + "^" + strings.Repeat("~", 77)},
		{cjk, 100, "…" + strings.Repeat("桜", 59) + "…", strings.Repeat(" ", 81) + "^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~"},
	}
	for i, c := range cases {
		src, caret := snippet(c.line, c.col)
		if src != c.src || caret != c.caret {
			t.Errorf("case %d:\ngot  %q\n     %q\nwant %q\n     %q", i, src, caret, c.src, c.caret)
		}
		width := 0
		for _, r := range src {
			width++
			if isWide(r) {
				width++
			}
		}
		if width > excerptWidth {
			t.Errorf("case %d: %d cells wide", i, width)
		}
	}
}

// TestTextOnOneLongLine: a hundred findings on a minified file's one line
// print a window each, not the line each (it was 41 MB for 97 findings).
func TestTextOnOneLongLine(t *testing.T) {
	line := strings.Repeat(`{"key": ["tavern", "inn"], "content": "Some text."}, `, 6000) // 318 KB
	var ds []Diagnostic
	for i := 0; i < 100; i++ {
		ds = append(ds, Diagnostic{File: "book.json", Line: 1, Column: 1 + i*3000, Severity: Warning, Rule: "r", Message: "m"})
	}
	p, _ := NewPrinter("text", Options{Color: true, Source: func(string, int) (string, bool) { return line, true }})
	var b bytes.Buffer
	if err := p.Print(&b, Sort(ds)); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 100*400 {
		t.Errorf("printed %d bytes for 100 findings", b.Len())
	}
	if !strings.Contains(b.String(), "…") {
		t.Error("no cut marks")
	}
}

func TestSummary(t *testing.T) {
	cases := []struct {
		ds    []Diagnostic
		files int
		want  string
	}{
		{nil, 3, "no problems in 3 files"},
		{sample(), 1, "2 errors, 1 warning, 1 info in 1 file"},
		{sample()[2:3], 2, "1 warning in 2 files"},
	}
	for _, c := range cases {
		if got := Summary(c.ds, c.files); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestFileSource(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.yaml")
	os.WriteFile(p, []byte("\xef\xbb\xbfone\ntwo\r\nthree"), 0o644)
	src := FileSource()
	for line, want := range map[int]string{1: "one", 2: "two\r", 3: "three"} {
		if got, ok := src(p, line); !ok || got != want {
			t.Errorf("line %d: %q %v", line, got, ok)
		}
	}
	if _, ok := src(p, 4); ok {
		t.Error("line 4 exists")
	}
	if _, ok := src("/nonexistent/x", 1); ok {
		t.Error("missing file")
	}
}
