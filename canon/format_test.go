package canon

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lorekit/lore/schema"
)

// fmtCopy copies src into a fresh temp dir under name and returns the path:
// tests format copies, never repository files.
func fmtCopy(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFormatGolden formats every testdata/fmt/*.in.* file and compares the
// result with its golden twin; formatting the result again changes nothing.
func TestFormatGolden(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("testdata", "fmt", "*.in.*"))
	if err != nil || len(ins) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range ins {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			ext := filepath.Ext(name)
			p := fmtCopy(t, t.TempDir(), "book"+ext, data)
			_, out, err := FormatFile(p, RoleAuto)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, strings.Replace(in, ".in.", ".out.", 1), out)
			p2 := fmtCopy(t, t.TempDir(), "book"+ext, out)
			_, again, err := FormatFile(p2, RoleAuto)
			if err != nil {
				t.Fatalf("formatted text refused: %v", err)
			}
			if !bytes.Equal(again, out) {
				t.Errorf("not idempotent:\n%s", firstDiff(string(again), string(out)))
			}
		})
	}
}

// TestFormatLayout states the rules the golden files show, so a careless
// -update cannot accept a regression silently.
func TestFormatLayout(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // substrings of the output, in this order
	}{
		{"entry keys in SPEC order, lint then extensions then others",
			"tags: [x]\nextensions: {a: 1}\nlint: {ignore: [empty-content]}\nsection: examples\nid: e\ncontent: x\nname: E\n",
			[]string{"id: e\n", "name: E\n", "content: x\n", "section: examples\n", "tags: [x]\n", "lint:", "extensions:"}},
		{"manifest keys in SPEC order, entries last",
			"entries: []\npresets: [task]\nname: N\nsettings: {contextTokens: 100}\ndescription: D\n",
			[]string{"name: N\n", "description: D\n", "settings:", "presets: [task]\n", "entries: []\n"}},
		{"comments stay with their keys",
			"# file comment\nsection: examples  # line\n# above id\nid: e\ncontent: x\n",
			[]string{"# file comment\n", "# above id\nid: e\n", "section: examples # line\n"}},
		{"multi-line string becomes a literal block, same value",
			"id: e\nsection: examples\ncontent: \"a\\nb\\n\"\n",
			[]string{"content: |\n  a\n  b\n"}},
		{"defaults written by the user stay",
			"id: e\nsection: examples\ncontent: x\nenabled: true\nposition: 0\ndepth: null\n",
			[]string{"position: 0\n", "enabled: true\n", "depth: null\n"}},
		{"short keyword lists in flow style, 2-space indentation",
			"- id: e\n  section: chat-history\n  content: x\n  keywords:\n      - a\n      - b\n",
			[]string{"- id: e\n  content: x\n", "  keywords: [a, b]\n"}},
		{"a literal block that cannot stay one is quoted, its # line is no comment",
			"id: a\nsection: examples\ncontent: |\n  # Title \n  text\n",
			[]string{"content: \"# Title \\ntext\\n\"\n"}},
		{"a line comment stays on its line when a list becomes flow",
			"id: e\nsection: chat-history\ncontent: x\nkeywords: # the main ones\n  - a\n  - b\ndepth: 2\n",
			[]string{"keywords: [a, b] # the main ones\ndepth: 2\n"}},
		{"blank lines between entries and top-level keys are kept",
			"name: N\n\nentries:\n  - id: a\n    section: examples\n    content: x\n\n  # b\n  - id: b\n    section: examples\n    content: y\n  - id: c\n    section: examples\n    content: z\n",
			[]string{"name: N\n\nentries:\n", "section: examples\n\n  # b\n  - id: b\n", "section: examples\n  - id: c\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := fmtCopy(t, t.TempDir(), "e.yaml", []byte(tc.in))
			_, out, err := FormatFile(p, RoleAuto)
			if err != nil {
				t.Fatal(err)
			}
			s := string(out)
			for _, w := range tc.want {
				i := strings.Index(s, w)
				if i < 0 {
					t.Fatalf("missing or out of order %q in:\n%s", w, string(out))
				}
				s = s[i+len(w):]
			}
		})
	}
}

// TestFormatRefuses: anchors, aliases and merge keys are left alone.
func TestFormatRefuses(t *testing.T) {
	for _, in := range []string{
		"- &a {id: a, section: examples, content: x}\n- *a\n",
		"name: N\nentries:\n  - id: a\n    section: examples\n    content: &c text\n  - id: b\n    section: examples\n    content: *c\n",
		"base: &b {section: examples}\nentries:\n  - <<: *b\n    id: a\n    content: x\n",
	} {
		p := fmtCopy(t, t.TempDir(), "a.yaml", []byte(in))
		_, _, err := FormatFile(p, RoleAuto)
		var re *RefusalError
		if !errors.As(err, &re) || !strings.Contains(re.Msg, "anchors") {
			t.Errorf("%q: got %v, want an anchors refusal", in, err)
		}
	}
}

// TestVerifyNamesFirstDifference simulates a formatter bug: an output
// that says something else is refused, naming the file and the difference.
func TestVerifyNamesFirstDifference(t *testing.T) {
	orig := "id: e\nsection: chat-history\ncontent: x # note\nkeywords: [a, b]\n"
	for _, tc := range []struct{ out, want string }{
		{"id: e\nsection: chat-history\ncontent: y # note\nkeywords: [a, b]\n", `content: "x" became "y"`},
		{"id: e\nsection: chat-history\ncontent: x # note\nkeywords: [a]\n", "keywords: 2 items became 1"},
		{"id: e\nsection: chat-history\ncontent: x # note\nkeywords: [a, b]\ndepth: 1\n", "depth: key added"},
		{"id: e\nsection: chat-history\ncontent: x\nkeywords: [a, b]\n", `comment "# note" lost`},
		{"id: e\nsection: chat-history # note\ncontent: x\nkeywords: [a, b]\n", `comment "# note" of content moved`},
		{"id: e\nsection: chat-history\ncontent: x # note\nkeywords: [a, b]\n", ""},
	} {
		err := verify("dir/e.yaml", []byte(orig), []byte(tc.out), nil)
		if tc.want == "" {
			if err != nil {
				t.Errorf("identical text refused: %v", err)
			}
			continue
		}
		var re *RefusalError
		if !errors.As(err, &re) || re.File != "dir/e.yaml" || !strings.Contains(re.Msg, tc.want) {
			t.Errorf("got %v, want a refusal naming %q", err, tc.want)
		}
	}
}

// TestDiffLorebooks: the model comparison ignores positions and reports the
// first field that differs.
func TestDiffLorebooks(t *testing.T) {
	mk := func() *schema.Lorebook {
		two := 2
		return &schema.Lorebook{Format: "lore", Manifest: schema.Manifest{Name: "N", Settings: schema.DefaultSettings()},
			Entries: []*schema.Entry{{ID: "a", Section: "chat-history", Depth: &two,
				Keywords: []schema.Keyword{{Text: "k", Pos: schema.Pos{File: "x", Line: 3}}},
				Fields:   map[string]schema.Pos{"id": {Line: 1}}}}}
	}
	a, b := mk(), mk()
	b.Entries[0].Keywords[0].Pos.Line = 9
	b.Entries[0].Fields["id"] = schema.Pos{Line: 7}
	b.Path, b.Files = "elsewhere", []string{"elsewhere"}
	if d := diffLorebooks(a, b); d != "" {
		t.Fatalf("positions only, got difference %q", d)
	}
	three := 3
	b.Entries[0].Depth = &three
	if d := diffLorebooks(a, b); !strings.Contains(d, `entry 1 (id "a").Depth: 2 became 3`) {
		t.Errorf("got %q", d)
	}
	b = mk()
	b.Manifest.Settings.ContextTokens = 1
	if d := diffLorebooks(a, b); !strings.Contains(d, "manifest.Settings.ContextTokens") {
		t.Errorf("got %q", d)
	}
	b = mk()
	b.Entries[0].Fields["depth"] = schema.Pos{}
	if d := diffLorebooks(a, b); !strings.Contains(d, "Fields: keys [id] became [depth id]") {
		t.Errorf("got %q", d)
	}
}

// TestFormatFixtures formats copies of every lore fixture file: each is
// accepted, formatting twice changes nothing, and the lorebook loads the same.
func TestFormatFixtures(t *testing.T) {
	root := filepath.Join("..", "fixtures")
	for _, book := range []string{filepath.Join("eldoria", "book"), filepath.Join("sakura", "book.yaml")} {
		src := filepath.Join(root, book)
		dst := filepath.Join(t.TempDir(), filepath.Base(book))
		copyTree(t, src, dst)
		before, _, err := schema.Load(dst)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range before.Files {
			role := RoleEntries
			if i == 0 {
				role = RoleManifest
			}
			if before.Files[0] == dst {
				role = RoleAuto
			}
			_, out, err := FormatFile(f, role)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if err := os.WriteFile(f, out, 0o644); err != nil {
				t.Fatal(err)
			}
			_, again, err := FormatFile(f, role)
			if err != nil {
				t.Fatalf("%s formatted is refused: %v", f, err)
			}
			if !bytes.Equal(again, out) {
				t.Errorf("%s: not idempotent:\n%s", f, firstDiff(string(again), string(out)))
			}
		}
		after, _, err := schema.Load(dst)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffLorebooks(before, after); d != "" {
			t.Errorf("%s: formatting changed the lorebook: %s", book, d)
		}
	}
}

func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// FuzzFmt: for any input that loads without error, fmt refuses or produces
// text that loads to the same lorebook and that fmt leaves unchanged.
func FuzzFmt(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "fmt", "*.in.*"))
	more, _ := filepath.Glob(filepath.Join("..", "fixtures", "eldoria", "book", "*", "*.yaml"))
	seeds = append(append(seeds, more...), filepath.Join("..", "fixtures", "sakura", "book.yaml"))
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err) // in-repo fixtures are never optional
		}
		f.Add(data, strings.HasSuffix(s, ".json"))
	}
	f.Add([]byte("- id: a\n  section: examples\n  content: \"x\\n\\n  y \"\n  # c\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, asJSON bool) {
		name := "f.yaml"
		if asJSON {
			name = "f.json"
		}
		dir := t.TempDir()
		p := fmtCopy(t, dir, name, data)
		before, _, err := schema.Load(p)
		if err != nil {
			return
		}
		_, out, err := FormatFile(p, RoleAuto)
		if err != nil {
			var re *RefusalError
			var pe *schema.ParseError
			if !errors.As(err, &re) && !errors.As(err, &pe) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		p2 := fmtCopy(t, t.TempDir(), name, out)
		after, _, err := schema.Load(p2)
		if err != nil {
			t.Fatalf("formatted text does not load: %v\n%s", err, out)
		}
		if d := diffLorebooks(before, after); d != "" {
			t.Fatalf("formatting changed the lorebook: %s\n%s", d, out)
		}
		_, again, err := FormatFile(p2, RoleAuto)
		if err != nil {
			t.Fatalf("formatted text refused: %v\n%s", err, out)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n%s\n--- again ---\n%s", out, again)
		}
	})
}

// BenchmarkFormatFile formats a generated 2,000-entry single-file lorebook
// with comments and blank lines (format, settle, verify).
func BenchmarkFormatFile(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# big book\nname: Big\nentries:\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, "\n  # entry %d\n  - content: |-\n      Line one of %d.\n      Line two.\n    keywords: [k%d, kw%d]\n    section: chat-history\n    id: e%d  # id\n", i, i, i, i, i)
	}
	p := fmtCopy(b, b.TempDir(), "big.yaml", []byte(sb.String()))
	b.SetBytes(int64(sb.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := FormatFile(p, RoleAuto); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFormatMutations is a deterministic cousin of FuzzFmt that runs in every
// `go test`: the fixtures and golden inputs with random small edits (comments
// in odd places, blank lines, block indicators, swapped lines). Every edited
// file that loads is refused or formatted to the same lorebook, idempotently.
func TestFormatMutations(t *testing.T) { formatMutations(t, true) }

// TestFormatMutationsNoComments is TestFormatMutations on text without a
// comment, which FormatFile formats in one round: it must be idempotent all
// the same.
func TestFormatMutationsNoComments(t *testing.T) { formatMutations(t, false) }

func formatMutations(t *testing.T, withComments bool) {
	n := 400
	if v := os.Getenv("LORE_FMT_MUTATIONS"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	if testing.Short() {
		n = 50
	}
	seeds, _ := filepath.Glob(filepath.Join("testdata", "fmt", "*.in.yaml"))
	more, _ := filepath.Glob(filepath.Join("..", "fixtures", "eldoria", "book", "*", "*.yaml"))
	seeds = append(append(seeds, more...), filepath.Join("..", "fixtures", "eldoria", "book", "lorebook.yaml"),
		filepath.Join("..", "fixtures", "sakura", "book.yaml"))
	var inputs [][]byte
	for _, s := range seeds {
		d, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err) // in-repo fixtures are never optional
		}
		if !withComments {
			d = stripComments(d)
		}
		inputs = append(inputs, d)
	}
	toks := []string{"\n", " ", "  ", "#", "# c\n", "\n\n", "- ", ": ", "|", "|+", "|-", ">", "\"", "'",
		"[", "]", "{", "}", ",", "\t", "  # x\n", "\n# foot\n", "\\n", "null", "~", "\n  \n"}
	if !withComments {
		var plain []string
		for _, tok := range toks {
			if !strings.Contains(tok, "#") {
				plain = append(plain, tok)
			}
		}
		toks = plain
	}
	r := rand.New(rand.NewSource(1))
	dir := t.TempDir()
	p, p2 := filepath.Join(dir, "f.yaml"), filepath.Join(dir, "g", "f.yaml")
	if err := os.MkdirAll(filepath.Dir(p2), 0o755); err != nil {
		t.Fatal(err)
	}
	formatted := 0
	for i := 0; i < n; i++ {
		d := append([]byte(nil), inputs[r.Intn(len(inputs))]...)
		for k := 0; k < 1+r.Intn(3); k++ {
			pos := r.Intn(len(d) + 1)
			switch r.Intn(3) {
			case 0:
				d = append(d[:pos], append([]byte(toks[r.Intn(len(toks))]), d[pos:]...)...)
			case 1:
				d = append(d[:pos], d[min(len(d), pos+r.Intn(10)):]...)
			case 2:
				lines := bytes.Split(d, []byte("\n"))
				a, b := r.Intn(len(lines)), r.Intn(len(lines))
				lines[a], lines[b] = lines[b], lines[a]
				d = bytes.Join(lines, []byte("\n"))
			}
		}
		if !withComments && bytes.IndexByte(d, '#') >= 0 {
			continue
		}
		if err := os.WriteFile(p, d, 0o644); err != nil {
			t.Fatal(err)
		}
		before, _, err := schema.Load(p)
		if err != nil {
			continue
		}
		_, out, err := FormatFile(p, RoleAuto)
		if err != nil {
			continue
		}
		formatted++
		if err := os.WriteFile(p2, out, 0o644); err != nil {
			t.Fatal(err)
		}
		after, _, err := schema.Load(p2)
		if err != nil {
			t.Fatalf("formatted text does not load: %v\n%s\n--- formatted ---\n%s", err, d, out)
		}
		if df := diffLorebooks(before, after); df != "" {
			t.Fatalf("formatting changed the lorebook: %s\n%s\n--- formatted ---\n%s", df, d, out)
		}
		if _, again, err := FormatFile(p2, RoleAuto); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent (%v):\n%s\n--- formatted ---\n%s\n--- again ---\n%s", err, d, out, again)
		}
	}
	if formatted == 0 {
		t.Fatal("no edited input was formatted: the test tests nothing")
	}
	t.Logf("%d of %d edited inputs formatted", formatted, n)
}

// stripComments drops every '#' and what follows it on its line.
func stripComments(d []byte) []byte {
	lines := bytes.Split(d, []byte("\n"))
	for i, l := range lines {
		if k := bytes.IndexByte(l, '#'); k >= 0 {
			lines[i] = bytes.TrimRight(l[:k], " ")
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

// TestFormatFileKeepsBOMInOrig: FormatFile's orig is the file as read, a
// byte-order mark included, and the formatted text has none, so fmt --check
// reports such a file and -w removes the mark.
func TestFormatFileKeepsBOMInOrig(t *testing.T) {
	data := []byte("\xef\xbb\xbfid: a\ncontent: x\nsection: examples\n")
	p := fmtCopy(t, t.TempDir(), "e.yaml", data)
	orig, out, err := FormatFile(p, RoleAuto)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(orig, data) {
		t.Errorf("orig %q, want the file as read", orig)
	}
	if want := "id: a\ncontent: x\nsection: examples\n"; string(out) != want {
		t.Errorf("out %q, want %q", out, want)
	}
}
