package formats

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lorekit/lore/schema"
)

// TestSTEntryField: each SillyTavern field of an entry is named as the file
// the book was read from spells it, at the line and column of its value
// there, with the value as that name says it — a SillyTavern file, a card
// and a lore file made by importing the SillyTavern file.
func TestSTEntryField(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	st := write("st.json", `{"entries": {"0": {
  "uid": 0, "key": ["storm"], "content": "A storm.",
  "disable": true,
  "useProbability": true, "probability": 0,
  "scanDepth": 0
}}}`)
	card := write("card.json", `{"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Nova",
  "character_book": {"entries": [{
    "keys": ["storm"], "content": "A storm.", "enabled": false, "insertion_order": 100,
    "extensions": {"useProbability": true, "probability": 0, "scan_depth": 0}
  }]}}}`)
	lore := write("lore.yaml", `entries:
  - id: storm
    section: chat-history
    keywords: [storm]
    enabled: false
    content: A storm.
    extensions:
      sillytavern: {useProbability: true, probability: 0, scanDepth: 0}
`)
	type want struct {
		name      string
		line, col int
		value     any
	}
	for _, c := range []struct {
		path   string
		fields map[string]want
	}{
		{st, map[string]want{
			"disable":     {"disable", 3, 14, true},
			"probability": {"probability", 4, 42, 0.0},
			"scanDepth":   {"scanDepth", 5, 16, 0.0},
			"key":         {"key", 2, 20, []any{"storm"}},
			"group":       {"group", 1, 19, ""}, // absent: ST's default, at the entry
		}},
		{card, map[string]want{
			"disable":     {"enabled", 3, 58, false},
			"probability": {"extensions.probability", 4, 59, 0.0},
			"scanDepth":   {"extensions.scan_depth", 4, 76, 0.0},
			"key":         {"keys", 3, 13, []any{"storm"}},
			"order":       {"insertion_order", 3, 84, 100.0},
		}},
		{lore, map[string]want{
			"disable":     {"enabled", 5, 14, false},
			"probability": {"extensions.sillytavern.probability", 8, 56, 0.0},
			"scanDepth":   {"extensions.sillytavern.scanDepth", 8, 70, 0.0},
			"key":         {"keywords", 4, 15, []any{"storm"}},
			"group":       {"extensions.sillytavern.group", 2, 5, ""},
		}},
	} {
		lb, ds, err := Open(c.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.Severity.String() == "error" {
				t.Fatalf("%s: %v", c.path, d)
			}
		}
		var e *schema.Entry
		for _, x := range lb.Entries {
			if CardField(x) == "" {
				e = x
			}
		}
		v := NewSTEntry(e, lb.Format)
		for k, w := range c.fields {
			f := v.Field(k)
			if f.Name != w.name || f.Pos.Line != w.line || f.Pos.Col != w.col || !equalJSON(f.Value, w.value) {
				t.Errorf("%s: Field(%q) = %s at %d:%d = %#v, want %s at %d:%d = %#v", filepath.Base(c.path), k,
					f.Name, f.Pos.Line, f.Pos.Col, f.Value, w.name, w.line, w.col, w.value)
			}
		}
	}
}

func equalJSON(a, b any) bool {
	x, ok1 := a.([]any)
	y, ok2 := b.([]any)
	if ok1 || ok2 {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return ok1 && ok2
	}
	return a == b
}
