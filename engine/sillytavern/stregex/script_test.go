package stregex

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lorekit/lore/match"
)

// TestParseLiteral: regexFromString's reading, case by case.
func TestParseLiteral(t *testing.T) {
	cases := []struct {
		in, pattern, flags string
		ok                 bool
	}{
		{"/abc/gi", "abc", "gi", true},
		{"/a/b/g", "a/b", "g", true},   // the last slash of the line ends it
		{"/a\\/b/", "a\\/b", "", true}, // an escaped slash too
		{"abc", "abc", "", true},       // no slash: all of it is the pattern
		{"/abc", "/abc", "", true},     // no closing slash
		{"//g", "//g", "", true},       // an empty pattern is not one
		{"/a/gg", "/a/gg", "", true},   // a repeated flag: the whole text
		{"/a/gq", "/a/gq", "", true},   // an unknown flag: the whole text
		{"/a/g x", "a", "g", true},     // what follows the flags is ignored
		{"/a/x", "a", "x", true},       // x passes regexFromString; Compile refuses it
		{"/a\nb/g", "/a", "", true},    // "." stops at the line break
		{"\n\n/q/i", "q", "i", true},   // leading line breaks are skipped
		{"\n", "", "", false},          // nothing to match
		{"", "", "", false},
	}
	for _, c := range cases {
		p, f, ok := ParseLiteral(c.in)
		if p != c.pattern || f != c.flags || ok != c.ok {
			t.Errorf("ParseLiteral(%q) = %q, %q, %v; want %q, %q, %v", c.in, p, f, ok, c.pattern, c.flags, c.ok)
		}
	}
}

func script(find, replace string, trim ...string) *Script {
	return &Script{Find: find, Replace: replace, Trim: trim, PromptOnly: true, Placement: []float64{AIOutput}}
}

// TestRun: runRegexScript's replacement, case by case.
func TestRun(t *testing.T) {
	up := Macros{Expand: func(s string) string { return strings.ReplaceAll(s, "{{char}}", "Sera") }}
	cases := []struct {
		s        *Script
		in, want string
	}{
		{script("/b/", "x"), "abcb", "axcb"},   // without g: the first match
		{script("/b/g", "x"), "abcb", "axcx"},  // g: every one
		{script("/B/gi", "x"), "abcb", "axcx"}, // i
		{script("/(\\w+)@(\\w+)/", "$2 at $1"), "me@home", "home at me"},
		{script("/(?<user>\\w+)@/", "[$<user>]"), "me@home", "[me]home"},
		{script("/o(x)?/", "[$1]"), "foo", "f[]o"}, // a group that did not take part
		{script("/b/", "<{{match}}|{{MATCH}}>"), "abc", "a<b|b>c"},
		{script("/a(.)/", "$1"), "xab", "xb"},
		{script("/q/", "$9"), "q", ""},                              // past the groups: the offset, 0 is falsy
		{script("/q/", "$1"), "aq", "a1"},                           // the offset of the match
		{script("/q/", "$2"), "aq", "aaq"},                          // then the whole text
		{script("/(O\\w+)/", "$1", "ld"), "an Old one", "an O one"}, // trim strings leave the group
		{script("/Sera/", "{{char}}!"), "Sera", "Sera!"},            // macros in the replacement
		{script("not a literal", "x"), "this is not a literal", "this is x"},
		{script("/a/x", "z"), "a", "a"},       // new RegExp throws: nothing happens
		{script("/(/", "z"), "(", "("},        // an invalid pattern: nothing happens
		{script("/a*/g", "-"), "baa", "-b--"}, // empty matches advance, as in JavaScript
		{script("/é/g", "e"), "café é", "cafe e"},
	}
	for _, c := range cases {
		r := &Runner{Macros: up}
		if got := r.Run(c.s, c.in); got != c.want {
			t.Errorf("%s → %q on %q: %q, want %q", c.s.Find, c.s.Replace, c.in, got, c.want)
		}
	}
}

// TestApplies: where a script runs in the prompt.
func TestApplies(t *testing.T) {
	s := script("/a/", "b")
	s.MinDepth, s.MaxDepth = 2, 4
	for d, want := range map[float64]bool{0: false, 1: false, 2: true, 4: true, 5: false} {
		if got := s.Applies(AIOutput, d); got != want {
			t.Errorf("depth %v: %v", d, got)
		}
	}
	if !s.Applies(AIOutput, NoDepth()) || s.Applies(UserInput, 3) {
		t.Error("no depth runs it; another placement does not")
	}
	s.PromptOnly = false
	if s.Applies(AIOutput, 3) || !s.AppliesWritten(AIOutput) {
		t.Error("a script with neither flag runs when a message is written, not when it is sent")
	}
	s.MarkdownOnly = true
	if s.Applies(AIOutput, 3) || s.AppliesWritten(AIOutput) {
		t.Error("markdown-only never reaches the prompt")
	}
}

// TestParse: the export shape, with SillyTavern's loose reading, and the
// errors that name the script.
func TestParse(t *testing.T) {
	ss, err := Parse([]any{map[string]any{"scriptName": "a", "findRegex": "/x/", "promptOnly": 1.0,
		"disabled": "", "minDepth": "3", "maxDepth": nil, "placement": []any{2.0, "5"}}}, "regexScripts")
	if err != nil || len(ss) != 1 {
		t.Fatal(ss, err)
	}
	s := ss[0]
	if !s.PromptOnly || s.Disabled || s.MinDepth != 3 || s.MaxDepth == s.MaxDepth || len(s.Placement) != 1 {
		t.Errorf("%+v", s)
	}
	if _, err := Parse(map[string]any{}, "regexScripts"); err == nil {
		t.Error("an object is not a list of scripts")
	}
	if _, err := Parse([]any{map[string]any{"scriptName": "b", "findRegex": 3.0}}, "regexScripts"); err == nil || !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("a number as findRegex: %v", err)
	}
}

// FuzzParseLiteral: any text reads without a panic, the pattern is a
// substring of it, the flags are distinct known letters, and Run never
// panics on what compiles.
func FuzzParseLiteral(f *testing.F) {
	for _, s := range []string{"/abc/gi", "/a/b/g", "abc", "//g", "/a\nb/", "\u2028/x/", "/(a+)+$/", "/[/", "/a/gX"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, flags, ok := ParseLiteral(s)
		if !ok {
			return
		}
		if !strings.Contains(s, p) || p == "" {
			t.Fatalf("pattern %q not in %q", p, s)
		}
		for i, c := range flags {
			if !strings.ContainsRune("gmixXsuUAJ", c) || strings.ContainsRune(flags[:i], c) {
				t.Fatalf("flags %q", flags)
			}
		}
		if utf8.ValidString(s) {
			(&Runner{}).Run(script(s, "$1{{match}}"), "some text / with (a) [b]")
		}
	})
}

// TestRunBounded: a script whose expression backtracks for hours is stopped
// at the match time limit, leaves its text as it was, and is reported.
func TestRunBounded(t *testing.T) {
	clock := match.NewRegexClock()
	r := &Runner{Clock: clock}
	text := strings.Repeat("a", 40) + "!"
	if got := r.Run(script("/(a+)+$/", "x"), text); got != text {
		t.Errorf("a stopped script changed the text: %q", got)
	}
	if st := clock.Stopped(); len(st) != 1 || st[0].Reason != match.StopTimeout {
		t.Errorf("stopped: %+v", st)
	}
}
