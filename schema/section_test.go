package schema

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

// TestKnownSectionsShareTheConstant: a loaded entry's section, when it is
// one the schema knows, is the schema's own string, not a copy read from
// the file, in YAML and in JSON; an unknown one is kept as written.
func TestKnownSectionsShareTheConstant(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"book.yaml": "name: B\nentries:\n  - {id: a, section: chat-history, keywords: [x], content: A}\n  - {id: b, section: post-history, content: B}\n  - {id: c, section: system-presets, content: C}\n  - {id: d, section: examples, content: D}\n  - {id: e, section: elsewhere, content: E}\n",
		"book.json": `{"name": "B", "entries": [{"id": "a", "section": "chat-history", "keywords": ["x"], "content": "A"}, {"id": "e", "section": "elsewhere", "content": "E"}]}`,
	}
	want := map[string]string{"a": SectionChatHistory, "b": SectionPostHistory, "c": SectionSystemPresets, "d": SectionExamples}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		book, _, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range book.Entries {
			k, known := want[e.ID]
			switch {
			case !known && e.Section != "elsewhere":
				t.Errorf("%s: entry %s has section %q, want it as written", name, e.ID, e.Section)
			case known && (e.Section != k || unsafe.StringData(e.Section) != unsafe.StringData(k)):
				t.Errorf("%s: entry %s's section %q is not the schema's constant", name, e.ID, e.Section)
			}
		}
	}
}
