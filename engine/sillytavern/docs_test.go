package sillytavern

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/internal/docexamples"
	"github.com/lorekit/lore/internal/golden"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

const docsPath = "../../docs/engines.md"

// docExample is one example of docs/engines.md's SillyTavern section: its
// files (book.json, chat.jsonl, settings.json), each a code block whose
// first line is "// NAME", and the ```text block that lists both engines'
// prompts.
type docExample struct{ docexamples.Example }

func commentedFile(_, first string) (string, bool) { return strings.CutPrefix(first, "// ") }

// TestDocsExamples renders every example of docs/engines.md's SillyTavern
// section with both engines and compares the listing under it (-update
// rewrites the listings and the examples' conformance cases). Every row of
// the table has an example, and every example is a case of the conformance
// corpus (testdata/cases/doc), so the prompt listed for SillyTavern is what
// SillyTavern's own code activates.
func TestDocsExamples(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	rows, examples := docexamples.Parse(lines, "SillyTavern", "S", commentedFile)
	if err := docexamples.Check(rows, examples, "book.json", "chat.jsonl"); err != nil {
		t.Fatalf("docs/engines.md, the SillyTavern section: %v", err)
	}
	docexamples.Compare(t, docsPath, lines, examples, golden.Update(), "engine/sillytavern",
		func(ex docexamples.Example) []string { return docExample{ex}.listing(t) },
		func(ex docexamples.Example) { docExample{ex}.checkCase(t) })
}

// parse reads the example's book, settings (the header of chat.jsonl names
// the user and the character, as the settings do) and messages.
func (ex docExample) parse(t *testing.T) (book any, settings map[string]any, msgs []any) {
	if err := json.Unmarshal([]byte(ex.Files["book.json"]), &book); err != nil {
		t.Fatalf("example %s: book.json: %v", ex.ID, err)
	}
	settings = map[string]any{}
	if s := ex.Files["settings.json"]; s != "" {
		if err := json.Unmarshal([]byte(s), &settings); err != nil {
			t.Fatalf("example %s: settings.json: %v", ex.ID, err)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(ex.Files["chat.jsonl"]), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("example %s: chat.jsonl: %v", ex.ID, err)
		}
		if _, ok := m["mes"]; ok {
			msgs = append(msgs, m)
			continue
		}
		for k, name := range map[string]string{"user_name": "userName", "character_name": "characterName"} {
			if v, ok := m[k]; ok {
				if _, set := settings[name]; !set {
					settings[name] = v
				}
			}
		}
	}
	return book, settings, msgs
}

// asCase is the example as an oracle input.
func (ex docExample) asCase(t *testing.T) []byte {
	book, settings, msgs := ex.parse(t)
	c := map[string]any{"description": "docs/engines.md, example " + strings.ToUpper(ex.ID), "book": book,
		"messages": msgs, "settings": settings}
	data, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

// checkCase makes sure the example is a case of the conformance corpus
// (-update writes it; scripts/oracle-sillytavern records SillyTavern's
// output for it).
func (ex docExample) checkCase(t *testing.T) { ex.checkCaseIn(t, "doc") }

// checkCaseIn is checkCase for a folder of testdata/cases.
func (ex docExample) checkCaseIn(t *testing.T, dir string) {
	path := filepath.Join("testdata", "cases", dir, ex.ID+".json")
	want := ex.asCase(t)
	got, err := os.ReadFile(path)
	if string(got) == string(want) {
		return
	}
	if golden.Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Errorf("example %s is not a conformance case: %v (-update writes it)", ex.ID, err)
		return
	}
	t.Errorf("%s differs from example %s (-update rewrites it, then scripts/oracle-sillytavern)", path, ex.ID)
}

// input is the example's book, chat and settings.sillytavern as a render's
// input, counted by chars/4.
func (ex docExample) input(t *testing.T) *render.Input {
	t.Helper()
	dir := t.TempDir()
	book, _, err := formats.Convert(filepath.Join(dir, "book.json"), []byte(ex.Files["book.json"]))
	if err != nil {
		t.Fatalf("example %s: %v", ex.ID, err)
	}
	chat := filepath.Join(dir, "chat.jsonl")
	if err := os.WriteFile(chat, []byte(ex.Files["chat.jsonl"]), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, _, err := schema.LoadTranscript(chat)
	if err != nil {
		t.Fatal(err)
	}
	_, settings, _ := ex.parse(t)
	counter, _ := tokenize.Get(tokenize.Chars4)
	s := schema.DefaultSettings()
	s.Tokenizer = tokenize.Chars4
	return &render.Input{Book: book, Transcript: tr, Settings: s, Counter: counter, EngineSettings: settings}
}

// listing renders the example with both engines, one message a line.
func (ex docExample) listing(t *testing.T) []string {
	in := ex.input(t)
	var out []string
	for _, eng := range []render.Engine{lore.New(), New()} {
		res, err := eng.Render(in)
		if err != nil {
			t.Fatalf("example %s, %s: %v", ex.ID, eng.Name(), err)
		}
		out = append(out, "--engine "+eng.Name())
		out = append(out, docexamples.Listing(res)...)
	}
	return out
}
