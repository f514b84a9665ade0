package canon

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/lorekit/lore/internal/golden"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
	"gopkg.in/yaml.v3"
)

func checkGolden(t *testing.T, path string, got []byte) { golden.Check(t, path, got) }

func firstDiff(a, b string) string { return golden.FirstDiff(a, b) }

// strRoundTrip writes s as the value of a key in lore's layout and reads it back.
func strRoundTrip(t *testing.T, s string) {
	t.Helper()
	m := Mapping()
	AddPair(m, "k", StrNode(s))
	b, err := encode(m, YAML)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	var back map[string]string
	if err := yaml.Unmarshal(b, &back); err != nil {
		t.Fatalf("%q: %v\n%s", s, err, b)
	}
	if back["k"] != s {
		t.Fatalf("%q came back %q via\n%s", s, back["k"], b)
	}
}

// TestStrNodeRoundTrip: every string the writer emits reads back unchanged,
// whatever its line breaks, indentation or look-alike of another type.
func TestStrNodeRoundTrip(t *testing.T) {
	for _, s := range []string{"", "\n", "\n\n", " \n", "a\n", "a\n\n", "\na", "  lead\nx", "x\n  y\n", "trail \nx",
		"true", "123", "null", "~", "- a", "# no", "a: b", "tab\tx\ny", "\t\nx", "@@depth 4\ntext", "---\nfoo: bar\n...",
		"\"q\"\n'q'", "\x7f\nx", "é\r\nx", "a\rb", "\u2028x\ny", "x\n\n\n"} {
		strRoundTrip(t, s)
	}
}

// TestMultiLineIsLiteral: multi-line text reads as written (a literal block),
// unless the block would not read back.
func TestMultiLineIsLiteral(t *testing.T) {
	m := Mapping()
	AddPair(m, "a", StrNode("one\ntwo\n"))
	AddPair(m, "b", StrNode("\nleading break"))
	b, err := encode(m, YAML)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a: |\n  one\n  two\nb: \"\\nleading break\"\n"; string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

// FuzzStrNode: whatever the text, the writer's choice of style reads back.
func FuzzStrNode(f *testing.F) {
	for _, s := range []string{"a\nb", "\n", " a\nb", "a\n\tb", "a\r\nb", "a \nb", "x\n\n\n", "- a\n- b", "a\n  b\n c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		strRoundTrip(t, s)
	})
}

// assertFmtClean: lore fmt leaves the file at path as it is.
func assertFmtClean(t *testing.T, path string, role SourceRole) {
	t.Helper()
	orig, out, err := FormatFile(path, role)
	if err != nil {
		t.Fatalf("fmt refuses what the writer wrote: %v", err)
	}
	if !bytes.Equal(orig, out) {
		t.Errorf("%s is not in fmt's layout:\n%s", path, firstDiff(string(out), string(orig)))
	}
}

// TestEncodeNativeBooks: lore's own fixtures (variables, persona, transforms,
// conditions, presets, lint directives, Japanese text), written as one YAML
// or JSON file and as a folder, load back to the same lorebook, and are in
// the layout lore fmt gives: the writer and fmt are one layout.
func TestEncodeNativeBooks(t *testing.T) {
	for _, p := range []string{"../fixtures/eldoria/book", "../fixtures/sakura/book.yaml"} {
		t.Run(p, func(t *testing.T) {
			lb, ds, err := schema.Load(p)
			if err != nil {
				t.Fatal(err)
			}
			if errs, _, _ := diag.Count(ds); errs > 0 {
				t.Fatalf("fixture has errors: %v", ds)
			}
			for _, format := range []string{YAML, JSON} {
				b, err := EncodeLorebook(lb, format)
				if err != nil {
					t.Fatal(err)
				}
				file := filepath.Join(t.TempDir(), "book."+format)
				if err := os.WriteFile(file, b, 0o644); err != nil {
					t.Fatal(err)
				}
				back, _, err := schema.Load(file)
				if err != nil {
					t.Fatalf("%s does not load: %v\n%s", format, err, b)
				}
				if d := diffModels(lb, back); d != "" {
					t.Errorf("%s file loads back different: %s", format, d)
				}
				assertFmtClean(t, file, RoleAuto)

				dir := filepath.Join(t.TempDir(), "out")
				if err := WriteFolder(dir, lb, format, false); err != nil {
					t.Fatal(err)
				}
				back, _, err = schema.Load(dir)
				if err != nil {
					t.Fatal(err)
				}
				if d := diffModels(lb, back); d != "" {
					// in the same order: a card or ST book is written in it
					t.Errorf("%s folder loads back different: %s", format, d)
				}
				for i, f := range back.Files {
					role := RoleEntries
					if i == 0 {
						role = RoleManifest
					}
					assertFmtClean(t, f, role)
				}
			}
		})
	}
}
