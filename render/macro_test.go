package render

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/schema"
)

func macroInput() *Input {
	book := &schema.Lorebook{}
	book.Manifest.Name = "Eldoria"
	book.Manifest.Character = "Seraphina"
	book.Manifest.Persona = &schema.Persona{Name: "Ari"}
	book.Manifest.Variables = []schema.Variable{
		{ID: "phase", Default: "act1"}, {ID: "inventory", Default: []any{"torch", "rope"}},
		{ID: "gold", Default: 12.0}, {ID: "empty", Default: nil},
	}
	return &Input{Book: book, Transcript: &schema.Transcript{}, Vars: map[string]any{"phase": "act2"}}
}

func TestMacrosExpand(t *testing.T) {
	m := NewMacros(macroInput())
	tests := []struct{ in, want string }{
		{"{{user}} meets {{char}}.", "Ari meets Seraphina."},
		{"{{USER}} and {{Char}}", "Ari and Seraphina"}, // names are case-insensitive
		{"{{ user }}", "Ari"},
		{"phase {{getvar::phase}}", "phase act2"}, // variables file wins
		{"{{getvar::inventory}}", "torch, rope"},
		{"{{GetVar::gold}} coins", "12 coins"},
		{"[{{getvar::empty}}]", "[]"},
		{"{{getvar::missing}}", "{{getvar::missing}}"}, // undeclared: left as written
		{"{{unknown}} {{user::x}}", "{{unknown}} {{user::x}}"},
		{"{{random::only}}", "only"},
		{"no macros", "no macros"},
		{"{{user", "{{user"},
		{"{{ {{user}} }}", "{{ Ari }}"},
		{"{{random::{{user}}::x}}", "{{random::Ari::x}}"}, // no nesting
		{"}}{{char}}{{", "}}Seraphina{{"},
	}
	for _, tt := range tests {
		if got := m.Expand(tt.in); got != tt.want {
			t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMacrosNames(t *testing.T) {
	in := macroInput()
	in.Transcript.Persona = &schema.Persona{Name: "Bea"}
	if got := NewMacros(in).Expand("{{user}}"); got != "Bea" {
		t.Errorf("transcript persona: %q", got)
	}
	in = macroInput()
	in.Book.Manifest.Persona = nil
	if got := NewMacros(in).Expand("{{user}}"); got != "User" {
		t.Errorf("no persona: %q", got)
	}

	in = macroInput()
	in.Book.Manifest.Character = ""
	implicit := &schema.Entry{ID: "implicit", Name: "Implicit", Enabled: true, Role: "character"}
	off := &schema.Entry{ID: "off", Name: "Off", Role: "character", Fields: map[string]schema.Pos{"role": {}}}
	explicit := &schema.Entry{ID: "maren", Name: "Old Maren", Enabled: true, Role: "character", Fields: map[string]schema.Pos{"role": {}}}
	in.Book.Entries = []*schema.Entry{implicit, off, explicit}
	if got := NewMacros(in).Expand("{{char}}"); got != "Old Maren" {
		t.Errorf("first explicit character entry: %q", got)
	}
	in.Book.Entries = []*schema.Entry{implicit}
	if got := NewMacros(in).Expand("{{char}}"); got != "Eldoria" {
		t.Errorf("lorebook name: %q", got)
	}
}

func TestMacrosRandomSeeded(t *testing.T) {
	in := macroInput()
	text := "{{random::a::b::c::d::e::f::g::h}} {{random::a::b::c::d::e::f::g::h}}"
	first := NewMacros(in).Expand(text)
	for i := 0; i < 5; i++ {
		if got := NewMacros(in).Expand(text); got != first {
			t.Fatalf("same seed gave %q then %q", first, got)
		}
	}
	seen := map[string]bool{}
	for seed := int64(0); seed < 40; seed++ {
		in.Seed = seed
		out := NewMacros(in).Expand(text)
		parts := strings.Fields(out)
		if len(parts) != 2 || len(parts[0]) != 1 || len(parts[1]) != 1 {
			t.Fatalf("seed %d: %q", seed, out)
		}
		seen[parts[0]] = true
	}
	if len(seen) < 4 {
		t.Errorf("40 seeds picked only %v", seen)
	}
}

func FuzzExpand(f *testing.F) {
	f.Add("{{user}} {{random::a::b}} {{getvar::inventory}}", int64(0))
	f.Add("{{{{}}}}{{random::}}{{random}}{{getvar::}}", int64(-1))
	f.Add("{{char", int64(7))
	f.Fuzz(func(t *testing.T, s string, seed int64) {
		in := macroInput()
		in.Seed = seed
		m := NewMacros(in)
		out := m.Expand(s)
		if !strings.Contains(s, "{{") && out != s {
			t.Fatalf("text without macros changed: %q → %q", s, out)
		}
		if again := NewMacros(in).Expand(s); again != out {
			t.Fatalf("not deterministic: %q then %q", out, again)
		}
	})
}
