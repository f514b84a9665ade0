package formats

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestSTMissingFieldsKeepSTMeaning: a SillyTavern entry that lacks a field
// means SillyTavern's default for it, and export must not turn that into
// lore's: no matchWholeWords is the global setting (not false), no position
// is before the character (not after), an outlet without disable is enabled,
// and a selectiveLogic ST does not know stays as it was.
func TestSTMissingFieldsKeepSTMeaning(t *testing.T) {
	book := `{"entries": {
  "0": {"uid": 0, "key": ["a"], "content": "no matchWholeWords, no position"},
  "1": {"uid": 1, "key": ["b"], "content": "an outlet", "position": 7, "outletName": "o"},
  "2": {"uid": 2, "key": ["c"], "keysecondary": ["d"], "selective": true, "selectiveLogic": 9, "content": "odd logic", "position": 1}
}}`
	path := filepath.Join(t.TempDir(), "book.json")
	if err := os.WriteFile(path, []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	lb, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Export(lb, FormatSillyTavern, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Entries map[string]map[string]any `json:"entries"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	e0, e1, e2 := got.Entries["0"], got.Entries["1"], got.Entries["2"]
	if v, ok := e0["matchWholeWords"]; ok && v != nil {
		t.Errorf("entry 0: matchWholeWords %v, want absent or null (ST's global setting)", v)
	}
	if e0["position"] != 0.0 {
		t.Errorf("entry 0: position %v, want 0 (ST's default)", e0["position"])
	}
	if e1["position"] != 7.0 || e1["disable"] != false {
		t.Errorf("entry 1: position %v, disable %v; want an enabled outlet", e1["position"], e1["disable"])
	}
	if e2["selectiveLogic"] != 9.0 {
		t.Errorf("entry 2: selectiveLogic %v, want 9 as it came", e2["selectiveLogic"])
	}
}
