package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// The bundled example: diagnostics with exact ranges, rule links and the
// hops of its recursion loop; hover on a keyword, an entry and a macro;
// definition, references, completion and the outline.
func TestSessionEldoria(t *testing.T) {
	root := t.TempDir()
	copyTree(t, "../fixtures/eldoria", root)
	c := startClient(t, root, map[string]any{"vars": "vars.yaml"})
	c.open("book/entries/places.yaml")
	ds := c.waitDiags("book/entries/places.yaml")

	road := diagWith(ds, "keyword-in-words")
	if road == nil || road.Range != rng(41, 13, 41, 17) {
		t.Errorf("keyword-in-words of \"road\": %+v, want the range 41:13-41:17", road)
	}
	if road != nil && road.CodeDescription.HRef != RulesURL+"keyword-in-words" {
		t.Errorf("codeDescription = %q", road.CodeDescription.HRef)
	}
	loop := diagWith(ds, "recursion-loop")
	if loop == nil || loop.Range != rng(12, 11, 12, 12) || len(loop.RelatedInformation) != 2 {
		t.Fatalf("recursion-loop: %+v, want 12:11-12:12 (old-maren's content) and two hops", loop)
	}
	if got := loop.RelatedInformation[1].Location.Range; got != rng(3, 71, 3, 76) {
		t.Errorf("second hop at %+v, want \"Maren\" in sleeping-stag's content (3:71-3:76)", got)
	}

	c.at("textDocument/hover", "book/entries/places.yaml", 7, 14, nil)             // keyword tavern
	c.at("textDocument/hover", "book/entries/places.yaml", 0, 7, nil)              // entry sleeping-stag
	c.at("textDocument/hover", "book/entries/places.yaml", 48, 25, nil)            // {{getvar::gold}}
	c.at("textDocument/hover", "book/entries/places.yaml", 53, 20, nil)            // variableId gold
	def := c.at("textDocument/definition", "book/entries/places.yaml", 3, 72, nil) // "Maren" in content
	var locs []protocol.Location
	_ = json.Unmarshal(def, &locs)
	if len(locs) != 1 || !strings.HasSuffix(locs[0].URI, "places.yaml") || locs[0].Range != rng(10, 6, 10, 15) {
		t.Errorf("definition of Maren = %+v, want old-maren's id (10:6-10:15)", locs)
	}
	c.at("textDocument/definition", "book/entries/places.yaml", 53, 20, nil) // to the manifest's variable
	c.at("textDocument/references", "book/entries/places.yaml", 7, 14, nil)  // where "tavern" is mentioned
	c.at("textDocument/completion", "book/entries/places.yaml", 6, 11, nil)  // section: |
	c.at("textDocument/completion", "book/entries/places.yaml", 53, 19, nil) // variableId: |
	c.at("textDocument/completion", "book/entries/places.yaml", 9, 2, nil)   // a new key
	var h struct {
		Contents struct{ Value string } `json:"contents"`
	}
	_ = json.Unmarshal(c.at("textDocument/hover", "book/entries/places.yaml", 48, 6, nil), &h) // {{user}}
	if !strings.HasPrefix(h.Contents.Value, "**macro** `{{user}}` → `") {
		t.Errorf("hover on {{user}}: %q", h.Contents.Value)
	}
	c.doc("textDocument/documentSymbol", "book/entries/places.yaml", nil)
	c.finish("eldoria")
}

// A folder book split over files: a collision across files with the other
// file as related information, a quick fix that is lint --fix's edit, the
// fix applied through didChange clearing the file's diagnostics, and
// formatting.
func TestSessionSplitFolder(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"lorebook.yaml":      "name: Split\n",
		"entries/inn.yaml":   "id: inn\nsection: chat-history\ncontent: It is old.\nmatchWholeWords: true\nkeywords: [\"inn, tavern\"]\n",
		"entries/river.yaml": "- id: river\n  section: chat-history\n  keywords: [river, inn]\n  matchWholeWords: true\n  content: The river runs past the tavern.\n",
	})
	c := startClient(t, root, nil)
	c.open("entries/inn.yaml")
	ds := c.waitDiags("entries/inn.yaml")
	joined := diagWith(ds, "joined-keywords")
	if joined == nil || joined.Range != rng(4, 11, 4, 24) {
		t.Fatalf("joined-keywords: %+v, want 4:11-4:24", joined)
	}
	var actions []protocol.CodeAction
	_ = json.Unmarshal(c.doc("textDocument/codeAction", "entries/inn.yaml", map[string]any{
		"range": joined.Range, "context": map[string]any{"diagnostics": []any{}}}), &actions)
	if len(actions) == 0 || actions[0].Edit == nil {
		t.Fatalf("no quick fix for joined-keywords: %+v", actions)
	}
	edits := actions[0].Edit.Changes[c.uri("entries/inn.yaml")]
	data, _ := os.ReadFile(filepath.Join(root, "entries/inn.yaml"))
	fixed := apply(t, string(data), edits)
	if !strings.HasSuffix(fixed, "keywords: [inn, tavern]\n") {
		t.Errorf("fixed text:\n%s", fixed)
	}
	c.change("entries/inn.yaml", 2, fixed)
	ds = c.waitDiags("entries/inn.yaml")
	if len(ds) != 0 {
		t.Fatalf("after the fix: %+v, want the file's diagnostics cleared", ds)
	}

	// The collision is on the later entry, in the other file, with the
	// first one's keyword as its related place.
	c.open("entries/river.yaml")
	ds = c.waitDiags("entries/river.yaml")
	col := diagWith(ds, "keyword-collision")
	if col == nil || col.Range != rng(2, 20, 2, 23) {
		t.Fatalf("river: %+v, want the collision of inn at 2:20-2:23", ds)
	}
	if len(col.RelatedInformation) != 1 || col.RelatedInformation[0].Location.URI != c.uri("entries/inn.yaml") ||
		col.RelatedInformation[0].Location.Range != rng(4, 11, 4, 14) {
		t.Errorf("collision's related place: %+v, want inn's \"inn\" (4:11-4:14)", col.RelatedInformation)
	}
	c.doc("textDocument/formatting", "entries/river.yaml", map[string]any{"options": map[string]any{"tabSize": 2, "insertSpaces": true}})
	// Taking "inn" off river fixes its last problem.
	c.change("entries/river.yaml", 2, "- id: river\n  section: chat-history\n  keywords: [river]\n  matchWholeWords: true\n  content: The river runs past the tavern.\n")
	if ds := c.waitDiags("entries/river.yaml"); len(ds) != 0 {
		t.Errorf("river: %+v, want its diagnostics cleared", ds)
	}
	c.finish("split")
}

// A SillyTavern world info file is a book of its own: its findings land
// on the JSON's lines; its entries are the outline.
func TestSessionSillyTavern(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"world.json": `{
  "entries": {
    "0": {"uid": 0, "key": ["tavern", "inn, bar"], "content": "The tavern.", "comment": "Tavern"},
    "1": {"uid": 1, "key": ["tavern"], "content": "Another tavern.", "comment": "Inn"}
  }
}
`})
	c := startClient(t, root, nil)
	c.open("world.json")
	ds := c.waitDiags("world.json")
	if d := diagWith(ds, "keyword-collision"); d == nil || d.Range != rng(3, 28, 3, 36) {
		t.Errorf("keyword-collision: %+v, want the second \"tavern\" (3:28-3:36)", d)
	}
	var actions []protocol.CodeAction
	_ = json.Unmarshal(c.doc("textDocument/codeAction", "world.json", map[string]any{
		"range": rng(2, 0, 3, 80), "context": map[string]any{"diagnostics": []any{}}}), &actions)
	if len(actions) != 0 {
		t.Errorf("code actions on a SillyTavern file: %+v, want none (lint --fix never rewrites a foreign file)", actions)
	}
	c.doc("textDocument/documentSymbol", "world.json", nil)
	c.at("textDocument/hover", "world.json", 2, 28, nil)
	// Its entries are judged by SillyTavern, the engine of its format.
	var h struct {
		Contents struct{ Value string } `json:"contents"`
	}
	_ = json.Unmarshal(c.at("textDocument/hover", "world.json", 2, 90, nil), &h)
	if !strings.Contains(h.Contents.Value, "by SillyTavern") {
		t.Errorf("hover on an entry's comment: %q, want it judged by SillyTavern", h.Contents.Value)
	}
	c.finish("sillytavern")
}

// A Japanese book and emoji: ranges are UTF-16 code units.
func TestSessionCJK(t *testing.T) {
	root := t.TempDir()
	copyTree(t, "../fixtures/sakura/book.yaml", filepath.Join(root, "book.yaml"))
	writeFiles(t, root, map[string]string{
		"dragon.yaml": "- id: dragon\n  section: chat-history\n  keywords: [\"🐉竜\", 桜, 桜]\n  content: 竜は桜の木の下で眠る。cafe\u0301の🐉。\n",
	})
	c := startClient(t, root, nil)
	c.open("book.yaml")
	c.waitDiags("book.yaml")
	c.open("dragon.yaml")
	ds := c.waitDiags("dragon.yaml")
	dup := diagWith(ds, "duplicate-keyword")
	if dup == nil || dup.Range != rng(2, 23, 2, 24) {
		t.Errorf("duplicate-keyword: %+v, want 2:23-2:24 (after a surrogate pair)", dup)
	}
	c.at("textDocument/hover", "dragon.yaml", 2, 20, nil) // the first 桜
	c.doc("textDocument/documentSymbol", "book.yaml", nil)
	c.finish("cjk")
}

// apply applies LSP edits (non-overlapping) to s.
func apply(t *testing.T, s string, edits []protocol.TextEdit) string {
	t.Helper()
	tx := newText([]byte(s))
	out := s
	for i := len(edits) - 1; i >= 0; i-- {
		a, b := tx.offset(edits[i].Range.Start), tx.offset(edits[i].Range.End)
		out = out[:a] + edits[i].NewText + out[b:]
	}
	return out
}

// A broken buffer is a diagnostic at its line, not a crash; requests on it
// are answered; mending it clears the diagnostic.
func TestSessionBrokenFile(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"book.yaml": "entries:\n  - id: tavern\n    section: chat-history\n    keywords: [tavern]\n    content: The tavern.\n"})
	c := startClient(t, root, nil)
	c.open("book.yaml")
	if ds := c.waitDiags("book.yaml"); len(ds) != 0 {
		t.Fatalf("a clean book: %+v", ds)
	}
	c.change("book.yaml", 2, "entries:\n  - id: tavern\n    section: [chat-history\n    content: The tavern.\n")
	ds := c.waitDiags("book.yaml")
	if len(ds) != 1 || ds[0].Code != "load" || ds[0].Severity != 1 || ds[0].Range.Start.Line < 2 {
		t.Fatalf("broken YAML: %+v, want one load error from line 3 on", ds)
	}
	c.at("textDocument/hover", "book.yaml", 1, 9, nil)
	c.doc("textDocument/documentSymbol", "book.yaml", nil)
	c.at("textDocument/completion", "book.yaml", 2, 13, nil)
	var res json.RawMessage
	err := c.conn.Call(context.Background(), "textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": c.uri("book.yaml")},
		"options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &res)
	if err == nil {
		t.Errorf("formatting a broken file answered %s, want an error", res)
	}
	// Binary junk and an empty buffer: diagnostics too.
	c.change("book.yaml", 3, "\x00\x01\x02")
	if ds := c.waitDiags("book.yaml"); len(ds) != 1 {
		t.Errorf("binary buffer: %+v", ds)
	}
	c.change("book.yaml", 4, "entries:\n  - id: tavern\n    section: chat-history\n    keywords: [tavern]\n    content: The tavern.\n")
	if ds := c.waitDiags("book.yaml"); len(ds) != 0 {
		t.Errorf("mended: %+v, want the diagnostics cleared", ds)
	}
	c.finish("broken")
}

// Incremental changes (what VS Code sends: a range and its new text), in
// UTF-16 positions across an emoji, edit the buffer the analysis reads.
func TestSessionIncrementalChanges(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"book.yaml": "entries:\n  - id: dragon\n    name: 🐉 Ryū\n    section: chat-history\n    keywords: [dragon]\n    content: The dragon sleeps.\n"})
	c := startClient(t, root, nil)
	c.open("book.yaml")
	if ds := c.waitDiags("book.yaml"); len(ds) != 0 {
		t.Fatalf("a clean book: %+v", ds)
	}
	edit := func(version int, r protocol.Range, text string) {
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": c.uri("book.yaml"), "version": version},
			"contentChanges": []map[string]any{{"range": r, "text": text}}})
	}
	// "Ryū" starts after "    name: " (10 units) and the emoji (2 units):
	// replace it, then break the section, in two changes.
	edit(2, rng(2, 13, 2, 16), "Wyrm")
	edit(3, rng(3, 13, 3, 17), "chatt")
	ds := c.waitDiags("book.yaml")
	if len(ds) != 1 || ds[0].Code != "schema" || ds[0].Range != rng(3, 13, 3, 26) {
		t.Fatalf("after the edits: %+v, want the section's schema error at 3:13-3:26", ds)
	}
	if !strings.Contains(ds[0].Message, `"chatt-history"`) {
		t.Errorf("message %q does not name the edited value", ds[0].Message)
	}
	var h struct {
		Contents struct{ Value string } `json:"contents"`
	}
	_ = json.Unmarshal(c.at("textDocument/hover", "book.yaml", 1, 10, nil), &h)
	if !strings.Contains(h.Contents.Value, "(Wyrm)") && !strings.Contains(h.Contents.Value, "🐉 Wyrm") {
		t.Errorf("hover after the edits: %q, want the new name", h.Contents.Value)
	}
	c.finish("incremental")
}
