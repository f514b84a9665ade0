package sillytavern

import (
	"strings"
	"testing"
	"time"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// {{trim}} and {{// comments}} are removed in one pass each, as
// SillyTavern's global regular expressions do: 50,000 of them took minutes
// when each removal copied the rest of the text.
func TestTrimAndCommentsLinear(t *testing.T) {
	for in, want := range map[string]string{
		"a\n\n{{trim}}\r\n{{TRIM}}\nb": "ab",
		"{{trim}}":                     "",
		"x{{// one}}y{{//two}}z":       "xyz",
		"{{// open":                    "{{// open",
	} {
		got := stripComments(trimMacro(in))
		if got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	big := strings.Repeat("keep {{// drop}}\n{{trim}}\n", 50_000)
	start := time.Now()
	got := stripComments(trimMacro(big))
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s", took)
	}
	if got != strings.Repeat("keep ", 50_000) {
		t.Errorf("got %.60q…", got)
	}
}

// {{lastMessage}} a thousand times with a 20 KB message stops at the
// generation's macro budget.
func TestMacroBudget(t *testing.T) {
	msg := strings.Repeat("y", 20_000)
	book := &schema.Lorebook{Entries: []*schema.Entry{{ID: "a", Content: strings.Repeat("{{lastMessage}} ", 1000), Enabled: true}}}
	in := &render.Input{Book: book, Transcript: &schema.Transcript{Messages: []schema.Message{{Role: "user", Content: msg}}}}
	m := newMacros("User", "Char", nil)
	m.budget = render.NewMacroBudget(in)
	m.lastMessage = msg
	out := m.expand(book.Entries[0].Content)
	if len(out) > 2<<20 || !strings.HasSuffix(out, "{{lastMessage}} ") {
		t.Errorf("expanded to %d bytes", len(out))
	}
	if l := m.budget.Limit(book); !strings.Contains(l, `entry "a"`) || !strings.Contains(l, "{{lastMessage}}") {
		t.Errorf("limit %q", l)
	}
}
