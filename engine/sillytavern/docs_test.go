package sillytavern

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

var update = flag.Bool("update", false, "rewrite the prompts listed under docs/engines.md's SillyTavern examples, and their cases")

const docsPath = "../../docs/engines.md"

// docExample is one example of docs/engines.md's SillyTavern section: its
// files (book.json, chat.jsonl, settings.json), each a code block whose
// first line is "// NAME", and the lines of the ```text block that lists
// both engines' prompts.
type docExample struct {
	id               string // "s3"
	files            map[string]string
	outStart, outEnd int
}

var (
	stHeading = regexp.MustCompile(`^### (S\d+)\. `)
	stRow     = regexp.MustCompile(`^\| (S\d+) \|`)
)

func stDocExamples(lines []string) (rows []string, out []docExample) {
	in := false
	var cur *docExample
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") {
			in = l == "## SillyTavern"
			continue
		}
		if !in {
			continue
		}
		if m := stRow.FindStringSubmatch(l); m != nil {
			rows = append(rows, m[1])
		}
		if m := stHeading.FindStringSubmatch(l); m != nil {
			out = append(out, docExample{id: strings.ToLower(m[1]), files: map[string]string{}})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil || !strings.HasPrefix(l, "```") || l == "```" {
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		switch {
		case l == "```text":
			cur.outStart, cur.outEnd = i+1, end
		case i+1 < end && strings.HasPrefix(lines[i+1], "// "):
			cur.files[strings.TrimPrefix(lines[i+1], "// ")] = strings.Join(lines[i+2:end], "\n") + "\n"
		}
		i = end
	}
	return rows, out
}

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
	rows, examples := stDocExamples(lines)
	if len(rows) == 0 || len(examples) != len(rows) {
		t.Fatalf("docs/engines.md: %d rows in the SillyTavern table, %d examples", len(rows), len(examples))
	}
	replace := map[int][]string{}
	for i, ex := range examples {
		if want := strings.ToLower(rows[i]); ex.id != want {
			t.Errorf("example %d is %s, the table's row is %s", i+1, ex.id, want)
		}
		if ex.outStart == 0 || ex.files["book.json"] == "" || ex.files["chat.jsonl"] == "" {
			t.Fatalf("docs/engines.md: example %s needs // book.json and // chat.jsonl blocks and a ```text block", ex.id)
		}
		got := ex.listing(t)
		want := lines[ex.outStart:ex.outEnd]
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			if *update {
				replace[ex.outStart] = got
			} else {
				t.Errorf("docs/engines.md:%d: example %s lists\n%s\nbut the engines send\n%s\n(go test ./engine/sillytavern -run TestDocsExamples -update)",
					ex.outStart, ex.id, strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
		}
		ex.checkCase(t)
	}
	if len(replace) == 0 {
		return
	}
	var out []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		if got, ok := replace[i+1]; ok {
			out = append(out, got...)
			for i+1 < len(lines) && lines[i+1] != "```" {
				i++
			}
		}
	}
	if err := os.WriteFile(docsPath, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// parse reads the example's book, settings (the header of chat.jsonl names
// the user and the character, as the settings do) and messages.
func (ex docExample) parse(t *testing.T) (book any, settings map[string]any, msgs []any) {
	if err := json.Unmarshal([]byte(ex.files["book.json"]), &book); err != nil {
		t.Fatalf("example %s: book.json: %v", ex.id, err)
	}
	settings = map[string]any{}
	if s := ex.files["settings.json"]; s != "" {
		if err := json.Unmarshal([]byte(s), &settings); err != nil {
			t.Fatalf("example %s: settings.json: %v", ex.id, err)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(ex.files["chat.jsonl"]), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("example %s: chat.jsonl: %v", ex.id, err)
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
	c := map[string]any{"description": "docs/engines.md, example " + strings.ToUpper(ex.id), "book": book,
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
func (ex docExample) checkCase(t *testing.T) {
	path := filepath.Join("testdata", "cases", "doc", ex.id+".json")
	want := ex.asCase(t)
	got, err := os.ReadFile(path)
	if string(got) == string(want) {
		return
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Errorf("example %s is not a conformance case: %v (-update writes it)", ex.id, err)
		return
	}
	t.Errorf("%s differs from example %s (-update rewrites it, then scripts/oracle-sillytavern)", path, ex.id)
}

// listing renders the example with both engines, one message a line.
func (ex docExample) listing(t *testing.T) []string {
	dir := t.TempDir()
	book, _, err := formats.Convert(filepath.Join(dir, "book.json"), []byte(ex.files["book.json"]))
	if err != nil {
		t.Fatalf("example %s: %v", ex.id, err)
	}
	chat := filepath.Join(dir, "chat.jsonl")
	if err := os.WriteFile(chat, []byte(ex.files["chat.jsonl"]), 0o644); err != nil {
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
	in := &render.Input{Book: book, Transcript: tr, Settings: s, Counter: counter, EngineSettings: settings}
	var out []string
	for _, eng := range []render.Engine{lore.New(), New()} {
		res, err := eng.Render(in)
		if err != nil {
			t.Fatalf("example %s, %s: %v", ex.id, eng.Name(), err)
		}
		out = append(out, "--engine "+eng.Name())
		for _, m := range res.Messages {
			var ids []string
			for _, s := range m.Sources {
				if !strings.HasPrefix(s, "message:") {
					ids = append(ids, s)
				}
			}
			src := ""
			if len(ids) > 0 {
				src = " [" + strings.Join(ids, ", ") + "]"
			}
			out = append(out, fmt.Sprintf("  %s%s: %s", m.Role, src, strings.ReplaceAll(m.Content, "\n", "⏎")))
		}
	}
	return out
}
