package main

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/consoledoc"
)

// TestReadmeConsole re-runs every console block of README.md (see
// consoledoc.Run), with the repository's fixtures/ at hand.
func TestReadmeConsole(t *testing.T) { consoledoc.Run(t, "README.md", "fixtures", 5) }

// TestMatchLines: the elisions mean what the README's readers take them to.
func TestMatchLines(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb", true},
		{"a\nb", "a\nc", false},
		{"a\n…\nd", "a\nb\nc\nd", true},
		{"a\n…\nd", "a\nd", true},
		{"a\n…\nd", "a\nb\nc", false},
		{"a long …", "a long line", true},
		{"a long …", "another", false},
		{"a\n…", "a\nb\nc", true},
		{"a", "a\nb", false},
	} {
		if got := consoledoc.MatchLines(strings.Split(tc.want, "\n"), strings.Split(tc.got, "\n")); got != tc.ok {
			t.Errorf("want %q against %q: %v", tc.want, tc.got, got)
		}
	}
}
