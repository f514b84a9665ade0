package diag

import "testing"

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"keyword", "keywords", 1},
		{"chathistory", "chat-history", 1},
		{"sleping-stag", "sleeping-stag", 1},
		{"kitten", "sitting", 3},
		{"旅館", "旅行", 1}, // runes, not bytes
	} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := EditDistance(c.b, c.a); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

// TestSuggest: what counts as a slip worth a "did you mean".
func TestSuggest(t *testing.T) {
	for _, tc := range []struct {
		got     string
		allowed []string
		want    string
	}{
		{"SillyTavern", []string{"lore", "yumina", "sillytavern"}, "sillytavern"},
		{"transcipt", []string{"transcript", "vars"}, "transcript"},
		{"card_v3", []string{"card-v2", "card-v3"}, "card-v3"},
		{"o200k", []string{"o200k_base", "cl100k_base", "chars4"}, "o200k_base"},
		{"card", []string{"card-v2", "card-v3"}, ""}, // the start of two
		{"jsn", []string{"text", "json"}, "json"},
		{"entries", []string{"entry"}, ""},
		{"keyword-colision", []string{"keyword-collision", "keyword-overlap"}, "keyword-collision"},
		{"xyzzy", []string{"text", "json"}, ""},
	} {
		if got := Suggest(tc.got, tc.allowed); got != tc.want {
			t.Errorf("Suggest(%q) = %q, want %q", tc.got, got, tc.want)
		}
	}
}
