package formats

import (
	"testing"
	"unicode/utf8"

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
