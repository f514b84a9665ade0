package sillytavern

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSettings(t *testing.T) {
	s, err := ParseSettings(nil)
	if err != nil || !cmp.Equal(s, DefaultSettings()) {
		t.Fatalf("no settings: %+v, %v; want the defaults", s, err)
	}
	d := DefaultSettings()
	if d.ScanDepth != 2 || !d.MatchWholeWords || !d.IncludeNames || !d.Recursive || d.Budget != 25 || d.CaseSensitive {
		t.Errorf("defaults are not SillyTavern's shipped ones: %+v", d)
	}
	s, err = ParseSettings(map[string]any{"scanDepth": 4, "budget": 30.0, "caseSensitive": true, "characterTags": []any{"a", "b"},
		"authorsNote": map[string]any{"content": "x", "depth": 2.0, "role": 1.0}, "seed": 9.0, "matchWholeWords": nil, "fillDefaults": true})
	if err != nil {
		t.Fatal(err)
	}
	if s.ScanDepth != 4 || s.Budget != 30 || !s.CaseSensitive || strings.Join(s.CharacterTags, ",") != "a,b" ||
		s.AuthorsNote.Content != "x" || s.AuthorsNote.Depth != 2 || s.AuthorsNote.Role != 1 || *s.Seed != 9 || !s.MatchWholeWords {
		t.Errorf("parsed %+v", s)
	}
	for _, c := range []struct {
		in   map[string]any
		want string
	}{
		{map[string]any{"scanDepht": 2.0}, `unknown setting "scanDepht"`},
		{map[string]any{"scanDepth": -1.0}, "scanDepth must be a number ≥ 0, not -1"},
		{map[string]any{"recursive": "yes"}, `recursive must be true or false, not the string "yes"`},
		{map[string]any{"generationType": "reroll"}, "generationType must be one of normal, continue"},
		{map[string]any{"characterTags": "fantasy"}, "characterTags must be a list of strings"},
		{map[string]any{"authorsNote": map[string]any{"role": 5.0}}, "authorsNote.role has a wrong value: 5"},
		{map[string]any{"authorsNote": map[string]any{"place": 1.0}}, `authorsNote: unknown key "place"`},
	} {
		if _, err := ParseSettings(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseDecorators(t *testing.T) {
	for _, c := range []struct {
		in, content string
		decorators  []string
	}{
		{"plain", "plain", nil},
		{"@@activate\nText", "Text", []string{"@@activate"}},
		{"@@dont_activate\n@@activate\nText", "Text", []string{"@@dont_activate", "@@activate"}},
		{"@@@activate\nText", "Text", nil}, // an escape with nothing to escape: skipped
		{"@@bogus\n@@@activate\nText", "Text", []string{"@@activate"}},
		{"@@activate", "@@activate", []string{"@@activate"}}, // only decorators: the content stays
		{"@@activated\nText", "Text", []string{"@@activated"}},
	} {
		d, content := parseDecorators(c.in)
		if content != c.content || !cmp.Equal(d, c.decorators) {
			t.Errorf("%q: %q %q, want %q %q", c.in, d, content, c.decorators, c.content)
		}
	}
	e := &entry{decorators: []string{"@@activated"}}
	if e.hasDecorator("@@activate") {
		t.Error("@@activated is not @@activate")
	}
}

func TestParseRegex(t *testing.T) {
	for _, c := range []struct {
		key   string
		regex bool
		text  string
		match bool
	}{
		{"/drag(on)?/i", true, "DRAG", true},
		{"/Dragon/", true, "dragon", false},
		{"/a,b/", true, "a,b", true},
		{"/(o)\\1n/", true, "moon", true},
		{"/[/", false, "", false},          // does not compile: a text key
		{"/a/b/", false, "", false},        // an unescaped slash inside
		{"/a\\/b/", true, "a/b", true},     // an escaped one
		{"/king/x", false, "", false},      // x is not a flag
		{"/king/gg", false, "", false},     // a repeated flag throws
		{"//", false, "", false},           // an empty pattern
		{"/^\\x01/y", true, "\x01x", true}, // sticky: at the start only
		{"/x/y", true, "\x01x", false},
		{"/a.b/s", true, "a\nb", true},
		{"/^b/m", true, "a\nb", true},
	} {
		re := parseRegex(c.key)
		if (re != nil) != c.regex {
			t.Errorf("%q: regex %v, want %v", c.key, re != nil, c.regex)
			continue
		}
		if re != nil && re.test(c.text, nil) != c.match {
			t.Errorf("%q on %q: %v, want %v", c.key, c.text, !c.match, c.match)
		}
	}
}

func TestMacros(t *testing.T) {
	m := newMacros("Tom", "Aria", map[string]string{"description": "{{char}} sings.", "scenario": "A tavern."})
	m.setChat([]chatMessage{{text: "hello", user: true}, {text: "hi there", user: false}, {text: "bye", user: true}})
	for in, want := range map[string]string{
		"{{user}} and {{CHAR}}":               "Tom and Aria",
		"<USER> <BOT> <char>":                 "Tom Aria Aria",
		"{{description}}":                     "Aria sings.",
		"a\n{{trim}}\nb":                      "ab",
		"x{{newline}}y{{noop}}":               "x\ny",
		"keep{{// hidden\nacross}} this":      "keep this",
		"{{lastMessage}}/{{lastCharMessage}}": "bye/hi there",
		"{{reverse:abc}}":                     "cba",
		"{{random::a::b}} {{getvar::x}}":      "{{random::a::b}} {{getvar::x}}",
		"":                                    "",
	} {
		if got := m.expand(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestFirstTrue(t *testing.T) {
	for n := range 40 {
		for k := -1; k < n; k++ {
			calls := 0
			got := firstTrue(n, func(i int) bool { calls++; return k >= 0 && i >= k })
			if got != k {
				t.Fatalf("n=%d first=%d: got %d", n, k, got)
			}
			if calls > 2*bitLen(n)+2 {
				t.Fatalf("n=%d: %d calls", n, calls)
			}
		}
	}
}

func bitLen(n int) int {
	b := 0
	for n > 0 {
		b++
		n >>= 1
	}
	return b
}

func TestRNGRestore(t *testing.T) {
	r := newRNG(42)
	a := r.next()
	s := r.state()
	b, c := r.next(), r.next()
	r.restore(s)
	if r.next() != b || r.next() != c || a == b || r.draws != 3 {
		t.Error("a restored generator does not draw again what it drew")
	}
	// mulberry32(0)'s first draws, as JavaScript computes them.
	z := newRNG(0)
	if got := z.next(); got != 0.26642920868471265 {
		t.Errorf("first draw of seed 0: %v", got)
	}
}
