package formats

import (
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"

	"gopkg.in/yaml.v3"
)

// TestStrNodeRoundTrip: every string the writer emits reads back unchanged,
// whatever its line breaks, indentation or look-alike of another type.
func TestStrNodeRoundTrip(t *testing.T) {
	for _, s := range []string{"", "\n", "\n\n", " \n", "a\n", "a\n\n", "\na", "  lead\nx", "x\n  y\n", "trail \nx",
		"true", "123", "null", "~", "- a", "# no", "a: b", "tab\tx\ny", "\t\nx", "@@depth 4\ntext", "---\nfoo: bar\n...",
		"\"q\"\n'q'", "\x7f\nx", "é\r\nx", "a\rb", "\u2028x\ny", "x\n\n\n"} {
		m := mapping()
		addPair(m, "k", strNode(s))
		b, err := yaml.Marshal(m)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		var back map[string]string
		if err := yaml.Unmarshal(b, &back); err != nil {
			t.Fatalf("%q: %v\n%s", s, err, b)
		}
		if back["k"] != s {
			t.Errorf("%q came back %q via\n%s", s, back["k"], b)
		}
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
		m := mapping()
		addPair(m, "k", strNode(s))
		b, err := yaml.Marshal(m)
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
	})
}

// TestWriterNativeBooks: lore's own fixtures (variables, persona, transforms,
// conditions, presets, lint directives, Japanese text) written by the writer
// load back to the same lorebook, as one YAML or JSON file and as a folder.
func TestWriterNativeBooks(t *testing.T) {
	for _, p := range []string{"../fixtures/eldoria/book", "../fixtures/sakura/book.yaml"} {
		t.Run(p, func(t *testing.T) {
			lb, ds, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if d.Severity == diag.Error {
					t.Fatalf("fixture has errors: %v", d)
				}
			}
			assertReloads(t, lb, YAML)
			assertReloads(t, lb, JSON)
			for _, format := range []string{YAML, JSON} {
				dir := filepath.Join(t.TempDir(), "out")
				if err := WriteFolder(dir, lb, format); err != nil {
					t.Fatal(err)
				}
				back, _, err := schema.Load(dir)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(modelOf(byID(back)), modelOf(byID(lb))) {
					t.Errorf("%s folder loads back different", format)
				}
			}
		})
	}
}
