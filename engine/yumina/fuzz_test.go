package yumina

import (
	"strings"
	"testing"
)

// Macro expansion never panics, leaves text without "{{" as it is, and never
// leaves a {{trim}} mark behind.
func FuzzMacros(f *testing.F) {
	for _, s := range []string{"{{char}} {{user}}", "a {{trim}} b", "{{{user}}}", "{{pick::a::b}}{{random::x}}", "{{a}b}}", "{{//}}{{", "}}{{x"} {
		f.Add(s)
	}
	m := &macros{char: "Mira", user: "Ana", vars: map[string]any{"x": 1.0}}
	f.Fuzz(func(t *testing.T, s string) {
		got := m.expand(s)
		if !strings.Contains(s, "{{") && got != s {
			t.Fatalf("expand(%q) = %q", s, got)
		}
		if strings.Contains(got, trimMark) && !strings.Contains(s, trimMark) {
			t.Fatalf("expand(%q) left a trim mark: %q", s, got)
		}
	})
}

// Example parsing never panics and never yields an empty turn.
func FuzzParseExamples(f *testing.F) {
	for _, s := range []string{"<START>\n{{user}}: hi\n{{char}}: hello", "<start>Ana: x\u2028y\nMIRA: z", "{{user}}:\n\n<START>", "\xff<STAR"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, turn := range parseExamples(s, "Ana", "Mira") {
			if turn.Text == "" || turn.Speaker == "" {
				t.Fatalf("%q: empty turn %+v", s, turn)
			}
		}
	})
}
