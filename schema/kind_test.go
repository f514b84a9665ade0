package schema

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// kindCases are documents of every kind lore reads, as plain values; each is
// written in every shape (YAML block and flow style, pretty and minified
// JSON) and must be detected, and load, as its kind.
var kindCases = []struct {
	name string
	doc  any
	want Kind
}{
	{"lorebook", map[string]any{"name": "B", "entries": []any{entryDoc("a", true)}}, KindLorebook},
	{"manifest", map[string]any{"name": "B", "settings": map[string]any{"contextTokens": 4096}}, KindLorebook},
	{"one entry", entryDoc("a", true), KindLorebook},
	{"entry list with roles", []any{entryDoc("a", true), entryDoc("b", true)}, KindLorebook},
	{"entry list", []any{entryDoc("a", false)}, KindLorebook},
	{"entry list, role before id", []any{map[string]any{"role": "lore", "content": "x", "section": "examples", "id": "a"}}, KindLorebook},
	{"transcript", map[string]any{"messages": []any{msgDoc("user", "hi"), msgDoc("assistant", "hello")}}, KindTranscript},
	{"transcript, summary and memory", map[string]any{"messages": []any{}, "summary": "Earlier.", "memory": []any{"a fact"}, "pending": []any{map[string]any{"text": "soon"}}}, KindTranscript},
	{"message list", []any{msgDoc("user", "hi"), map[string]any{"role": "assistant", "name": "Mira", "content": "hello"}}, KindTranscript},
	{"message list with parts", []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "hi"}}}}, KindTranscript},
	{"SillyTavern messages", []any{map[string]any{"name": "Ari", "is_user": true, "mes": "hi"}}, KindTranscript},
	{"variables", map[string]any{"gold": 5, "story-phase": "act2", "inventory": []any{"torch"}}, KindVars},
}

func entryDoc(id string, role bool) map[string]any {
	e := map[string]any{"id": id, "section": "chat-history", "keywords": []any{"k" + id}, "content": "Text."}
	if role {
		e["role"] = "lore"
	}
	return e
}

func msgDoc(role, content string) map[string]any {
	return map[string]any{"role": role, "content": content}
}

// shapes writes a document in each shape lore reads: name → (file, text).
func shapes(t *testing.T, doc any) map[string][2]string {
	t.Helper()
	block, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	min, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	pretty, _ := json.MarshalIndent(doc, "", "  ")
	return map[string][2]string{
		"yaml":      {"doc.yaml", string(block)},
		"yaml flow": {"doc.yaml", string(min)}, // JSON is YAML in flow style
		"json":      {"doc.json", string(pretty)},
		"json-min":  {"doc.json", string(min)},
	}
}

func TestDetectKindEveryKindEveryShape(t *testing.T) {
	for _, c := range kindCases {
		for shape, f := range shapes(t, c.doc) {
			t.Run(c.name+"/"+shape, func(t *testing.T) {
				p := writeTemp(t, f[0], f[1])
				doc, err := ReadDoc(p)
				if err != nil {
					t.Fatal(err)
				}
				if got := doc.Kind(); got != c.want {
					t.Fatalf("detected %s, want %s:\n%s", got, c.want, f[1])
				}
				if c.name == "SillyTavern messages" {
					return // only .jsonl chats of these load (TestDetectKindJSONL)
				}
				var ds []string
				switch c.want {
				case KindLorebook:
					_, d, err := LoadDoc(doc)
					ds = messages(d, err)
				case KindTranscript:
					_, d := LoadTranscriptDoc(doc)
					ds = messages(d, nil)
				case KindVars:
					_, d := LoadVarsDoc(doc)
					ds = messages(d, nil)
				}
				if len(ds) > 0 {
					t.Errorf("loading it as a %s says:\n%s", c.want, strings.Join(ds, "\n"))
				}
			})
		}
	}
}

func messages(ds []diag.Diagnostic, err error) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Message)
	}
	if err != nil {
		out = append(out, err.Error())
	}
	return out
}

// TestDetectKindJSONL: a .jsonl file is a SillyTavern chat by its name.
func TestDetectKindJSONL(t *testing.T) {
	p := filepath.Join(t.TempDir(), "chat.jsonl")
	if got := DetectKind(p, nil); got != KindTranscript {
		t.Errorf("got %s", got)
	}
}

// TestIsLoreData: what a folder walk takes for lore data, and what it passes over.
func TestIsLoreData(t *testing.T) {
	for _, c := range []struct {
		text string
		kind Kind
		ok   bool
	}{
		{"name: B\nentries: []\n", KindLorebook, true},
		{"id: a\nsection: examples\ncontent: x\n", KindLorebook, true},
		{"- {id: a, role: lore, section: examples, content: x}\n", KindLorebook, true},
		{"messages: [{role: user, content: hi}]\n", KindTranscript, true},
		{"- {role: user, content: hi}\n", KindTranscript, true},
		{`{"name": "pkg", "description": "a package.json", "version": "1.0.0"}`, KindLorebook, false},
		{"on: push\njobs: {}\n", KindVars, false},
		{"- one\n- two\n", KindLorebook, false},
	} {
		root, err := ParseBytes("f.yaml", []byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if k, ok := IsLoreData("f.yaml", root); k != c.kind || ok != c.ok {
			t.Errorf("%q: got %s, %v; want %s, %v", c.text, k, ok, c.kind, c.ok)
		}
	}
}
