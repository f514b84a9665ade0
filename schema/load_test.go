package schema

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeTree writes files (path → content) under a new temporary folder.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func mustLoad(t *testing.T, path string) *Lorebook {
	t.Helper()
	lb, ds, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		t.Errorf("unexpected: %s:%d:%d: %s [%s]", d.File, d.Line, d.Column, d.Message, d.Rule)
	}
	return lb
}

func TestEntryDefaults(t *testing.T) {
	p := writeTemp(t, "book.yaml", `entries:
  - {id: a, section: system-presets, content: x}
  - {id: b, section: chat-history, content: x}
  - {id: c, section: examples, content: x}
  - {id: d, section: post-history, content: x}
  - {id: e, section: chat-history, content: x, alwaysSend: true, name: Eee, enabled: false,
     role: lore, apiRole: user, conditionLogic: any, secondaryKeywordLogic: NOT_ALL, depth: 2, position: -1}
  - {id: f, section: system-presets, content: x, alwaysSend: false}
`)
	lb := mustLoad(t, p)
	type got struct {
		Name, Role, APIRole, Logic, Secondary string
		Enabled, Always                       bool
		Depth                                 any
		Position                              int
	}
	depth := func(d *int) any {
		if d == nil {
			return nil
		}
		return *d
	}
	want := map[string]got{
		"a": {"a", "character", "system", "all", "AND_ANY", true, true, nil, 0},
		"b": {"b", "character", "system", "all", "AND_ANY", true, false, nil, 0},
		"c": {"c", "character", "system", "all", "AND_ANY", true, true, nil, 0},
		"d": {"d", "character", "system", "all", "AND_ANY", true, true, nil, 0},
		"e": {"Eee", "lore", "user", "any", "NOT_ALL", false, true, 2, -1},
		"f": {"f", "character", "system", "all", "AND_ANY", true, false, nil, 0},
	}
	if len(lb.Entries) != len(want) {
		t.Fatalf("%d entries", len(lb.Entries))
	}
	for _, e := range lb.Entries {
		g := got{e.Name, e.Role, e.APIRole, e.ConditionLogic, e.SecondaryKeywordLogic, e.Enabled, e.AlwaysSend, depth(e.Depth), e.Position}
		if !reflect.DeepEqual(g, want[e.ID]) {
			t.Errorf("%s: got %+v\nwant %+v", e.ID, g, want[e.ID])
		}
	}
	if lb.Format != "lore" || lb.Path != p || !reflect.DeepEqual(lb.Files, []string{p}) {
		t.Errorf("lorebook: %q %q %v", lb.Format, lb.Path, lb.Files)
	}
	if lb.Manifest.Name != "book" {
		t.Errorf("name defaults to the file name: %q", lb.Manifest.Name)
	}
	if !reflect.DeepEqual(lb.Manifest.Settings.Shares, DefaultSettings().Shares) || lb.Manifest.Settings.ContextTokens != 8192 {
		t.Errorf("settings: %+v", lb.Manifest.Settings)
	}
}

func TestManifestDecoding(t *testing.T) {
	p := writeTemp(t, "book.json", `{
  "name": "Eldoria", "character": "Sera", "format": "rules",
  "settings": {"contextTokens": 4096, "tokenizer": "chars4", "shares": {"cards": 0.4}},
  "variables": [{"id": "gold", "default": 3}, {"id": "phase", "type": "string", "default": "act1"}],
  "persona": {"name": "Ari"},
  "presets": ["task"],
  "transforms": [{"pattern": "x+", "minDepth": 2, "roles": ["assistant"]}],
  "folders": [{"id": "places"}],
  "extensions": {"st": {"scan": 4}},
  "entries": [{"id": "a", "section": "examples", "content": "x", "extensions": {"st": {"order": 5}},
               "lint": {"ignore": ["empty-content"], "reason": "placeholder"}}]
}`)
	lb := mustLoad(t, p)
	m := lb.Manifest
	s := m.Settings
	if m.Name != "Eldoria" || m.Character != "Sera" || m.Format != "rules" || s.ContextTokens != 4096 ||
		s.ResponseReserve != 1024 || s.Tokenizer != "chars4" || s.Shares.Cards != 0.4 || s.Shares.History != 0.5 {
		t.Errorf("manifest: %+v", m)
	}
	if s.Fields["shares.cards"] != (Pos{File: p, Line: 3, Col: 82}) {
		t.Errorf("shares.cards at %v", s.Fields["shares.cards"])
	}
	if len(m.Variables) != 2 || m.Variables[0].Type != "number" || m.Variables[0].Default != 3.0 || m.Variable("phase") == nil {
		t.Errorf("variables: %+v", m.Variables)
	}
	if m.Persona == nil || m.Persona.Name != "Ari" || len(m.Presets) != 1 || m.Presets[0].Text != "task" {
		t.Errorf("persona/presets: %+v %+v", m.Persona, m.Presets)
	}
	tr := m.Transforms[0]
	if tr.Pattern != "x+" || *tr.MinDepth != 2 || tr.MaxDepth != nil || tr.Roles[0] != "assistant" {
		t.Errorf("transform: %+v", tr)
	}
	if m.Folders[0].Name != "places" || m.Extensions["st"].(map[string]any)["scan"] != 4.0 {
		t.Errorf("folders/extensions: %+v %+v", m.Folders, m.Extensions)
	}
	e := lb.Entries[0]
	if e.Extensions["st"].(map[string]any)["order"] != 5.0 || e.Lint.Reason != "placeholder" ||
		len(e.Lint.Ignore) != 1 || e.Lint.Ignore[0] != (Keyword{"empty-content", Pos{File: p, Line: 11, Col: 36}}) {
		t.Errorf("entry: %+v %+v", e.Extensions, e.Lint)
	}
}

func TestPositions(t *testing.T) {
	src := "entries:\n" +
		"  - id: tavern\n" +
		"    section: chat-history\n" +
		"    keywords: [tavern, \"inn\"]\n" +
		"    conditions:\n" +
		"      - {variableId: gold, operator: gt, value: 3}\n" +
		"    content: |\n" +
		"      The Sleeping Stag.\n" +
		"      Maren runs it — 千代 too.\n" +
		"  - id: plain\n" +
		"    section: examples\n" +
		"    content: one line here\n" +
		"  - id: quoted\n" +
		"    section: examples\n" +
		"    content: \"quoted text\"\n" +
		"  - id: folded\n" +
		"    section: examples\n" +
		"    content: >\n" +
		"        folded\n" +
		"        text\n"
	p := writeTemp(t, "b.yaml", src)
	lb := mustLoad(t, p)
	at := func(l, c int) Pos { return Pos{File: p, Line: l, Col: c} }
	e := lb.Entries[0]
	checks := []struct {
		name      string
		got, want Pos
	}{
		{"entry", e.Pos, at(2, 5)},
		{"id", e.FieldPos("id"), at(2, 9)},
		{"section", e.FieldPos("section"), at(3, 14)},
		{"keywords", e.FieldPos("keywords"), at(4, 15)},
		{"keyword 0", e.Keywords[0].Pos, at(4, 16)},
		{"keyword 1", e.Keywords[1].Pos, at(4, 24)},
		{"condition", e.Conditions[0].Pos, at(6, 9)},
		{"condition value", e.Conditions[0].FieldPos("value"), at(6, 49)},
		{"absent field", e.FieldPos("depth"), at(2, 5)},
		{"content (indicator)", e.FieldPos("content"), at(7, 14)},
		{"content text", e.ContentPos, at(8, 7)},
		{"offset 0", e.PosInContent(0), at(8, 7)},
		{"offset in line 1", e.PosInContent(4), at(8, 11)},
		{"offset on line 2", e.PosInContent(strings.Index(e.Content, "千代")), at(9, 23)},
		{"plain", lb.Entries[1].PosInContent(4), at(12, 18)},
		{"quoted", lb.Entries[2].PosInContent(7), at(15, 22)},
		{"folded falls back", lb.Entries[3].PosInContent(8), at(19, 9)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %d:%d, want %d:%d", c.name, c.got.Line, c.got.Col, c.want.Line, c.want.Col)
		}
	}
	if e.Conditions[0].Value != 3.0 || e.Conditions[0].Operator != "gt" || e.Conditions[0].VariableID != "gold" {
		t.Errorf("condition: %+v", e.Conditions[0])
	}
	if e.Content != "The Sleeping Stag.\nMaren runs it — 千代 too.\n" {
		t.Errorf("content %q", e.Content)
	}
}

func TestFolderLorebook(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"lorebook.yaml":             "name: W\nentries:\n  - {id: m, section: examples, content: x}\n",
		"entries/b.yaml":            "- {id: b1, section: examples, content: x}\n- {id: b2, section: examples, content: x}\n",
		"entries/a.yml":             "id: a\nsection: examples\ncontent: x\n",
		"entries/deep/c.json":       `{"id": "c", "section": "examples", "content": "x"}`,
		"entries/.hidden.yaml":      "not: an entry\n",
		".git/config.yaml":          "not: an entry\n",
		"entries/notes.txt":         "ignored",
		"entries/deep/.x/d.yaml":    "not: an entry\n",
		"lorebook.schema.json":      `{"$schema": "https://json-schema.org/draft/2020-12/schema"}`,
		"entries/entry.Schema.JSON": `{"type": "object"}`,
	})
	lb := mustLoad(t, dir)
	var ids []string
	for _, e := range lb.Entries {
		ids = append(ids, e.ID)
	}
	if want := []string{"m", "a", "b1", "b2", "c"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids %v, want %v", ids, want)
	}
	var rel []string
	for _, f := range lb.Files {
		r, _ := filepath.Rel(dir, f)
		rel = append(rel, filepath.ToSlash(r))
	}
	if want := []string{"lorebook.yaml", "entries/a.yml", "entries/b.yaml", "entries/deep/c.json"}; !reflect.DeepEqual(rel, want) {
		t.Errorf("files %v, want %v", rel, want)
	}
	if lb.Manifest.Name != "W" || lb.Entries[4].Pos.File != filepath.Join(dir, "entries/deep/c.json") {
		t.Errorf("manifest %q, c at %v", lb.Manifest.Name, lb.Entries[4].Pos)
	}
}

func TestFolderProblems(t *testing.T) {
	dir := writeTree(t, map[string]string{"entries/a.yaml": "id: a\nsection: examples\ncontent: x\n"})
	if _, _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "folder has no lorebook.yaml") {
		t.Errorf("no manifest: %v", err)
	}
	dir = writeTree(t, map[string]string{"lorebook.yaml": "name: a\n", "lorebook.json": "{}"})
	if _, _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "two manifests, lorebook.yaml and lorebook.json") {
		t.Errorf("two manifests: %v", err)
	}
	// A broken entry file stops nothing else: the others load, and the error names it.
	dir = writeTree(t, map[string]string{
		"lorebook.yaml": "name: a\n",
		"a.yaml":        "id: a\nsection: examples\ncontent: x\n",
		"b.yaml":        "id: [\n",
	})
	lb, _, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "b.yaml:") || len(lb.Entries) != 1 {
		t.Errorf("broken file: %v, %d entries", err, len(lb.Entries))
	}
	ds := ErrorDiagnostics(dir, err)
	if len(ds) != 1 || ds[0].Rule != "load" || ds[0].Line != 2 {
		t.Errorf("diagnostics: %+v", ds)
	}
}

func TestShapes(t *testing.T) {
	single := writeTemp(t, "one.yaml", "id: solo\nsection: examples\ncontent: x\n")
	if lb := mustLoad(t, single); len(lb.Entries) != 1 || lb.Entries[0].ID != "solo" {
		t.Errorf("single entry: %+v", lb.Entries)
	}
	list := writeTemp(t, "list.json", `[{"id": "a", "section": "examples", "content": ""}]`)
	if lb := mustLoad(t, list); len(lb.Entries) != 1 || lb.Entries[0].Content != "" {
		t.Errorf("bare list: %+v", lb.Entries)
	}
	_, ds, err := Load(writeTemp(t, "s.yaml", "just a string\n"))
	if err != nil || len(ds) != 1 || !strings.Contains(ds[0].Message, "expected a lorebook (a mapping with entries:, or a list of entries), found a string") {
		t.Errorf("scalar: %v %+v", err, ds)
	}
}

func TestDuplicateKeysAndIDs(t *testing.T) {
	p := writeTemp(t, "d.yaml", "entries:\n  - id: a\n    section: examples\n    content: x\n    content: y\n  - {id: a, section: examples, content: z}\n")
	lb, ds, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if lb.UniqueIDs {
		t.Error("UniqueIDs set on a book with a duplicate id")
	}
	if lb, _, _ := Load(writeTemp(t, "u.yaml", "entries:\n  - {id: a, section: examples, content: x}\n  - {id: b, section: examples, content: y}\n")); lb == nil || !lb.UniqueIDs {
		t.Error("UniqueIDs not set on a book whose ids differ")
	}
	var got []string
	for _, d := range ds {
		got = append(got, strings.TrimPrefix(d.Pos().String(), p)+" "+d.Message+" ["+d.Rule+"]")
	}
	want := []string{
		`:5:5 field "content" is given twice (first at 4:5); the later value would be lost [schema]`,
		`:6:10 duplicate id "a": also the id of the entry at ` + p + `:2:9; ids must be unique in a lorebook [duplicate-id]`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTranscriptShapes(t *testing.T) {
	mapping := writeTemp(t, "t.yaml", `summary: before
memory: [one, {content: two}, {text: three}]
pending: [soon]
persona: {name: Ari}
messages:
  - {role: user, content: hi, name: Ari}
  - role: assistant
    content: hello
`)
	tr, ds, err := LoadTranscript(mapping)
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	if tr.Summary != "before" || len(tr.Memory) != 3 || tr.Memory[2].Text != "three" || tr.Pending[0].Text != "soon" ||
		tr.Persona.Name != "Ari" || len(tr.Messages) != 2 || tr.Messages[0].Name != "Ari" || tr.Messages[1].Pos.Line != 7 {
		t.Errorf("mapping: %+v", tr)
	}
	openai := writeTemp(t, "o.json", `[{"role": "system", "content": "rules"},
 {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image_url", "image_url": {"url": "x"}}, {"type": "text", "text": "b"}]}]`)
	tr, ds, err = LoadTranscript(openai)
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	if len(tr.Messages) != 2 || tr.Messages[1].Content != "a\nb" || tr.Messages[1].Pos != (Pos{File: openai, Line: 2, Col: 2}) {
		t.Errorf("openai: %+v", tr.Messages)
	}
	st := writeTemp(t, "chat.jsonl", `{"user_name":"You","character_name":"Sera","create_date":"2024"}
{"name":"Sera","is_user":false,"is_system":false,"mes":"Welcome."}

{"name":"You","is_user":true,"mes":"Thanks — 千代?"}
{"name":"Narrator","is_system":true,"mes":"Night falls."}
`)
	tr, ds, err = LoadTranscript(st)
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	var roles []string
	for _, m := range tr.Messages {
		roles = append(roles, m.Role+":"+m.Content)
	}
	if want := []string{"assistant:Welcome.", "user:Thanks — 千代?", "system:Night falls."}; !reflect.DeepEqual(roles, want) {
		t.Errorf("jsonl: %v", roles)
	}
	if tr.Messages[1].Pos != (Pos{File: st, Line: 4, Col: 1}) {
		t.Errorf("jsonl pos %v", tr.Messages[1].Pos)
	}
	// Detected by content without the extension.
	st2 := writeTemp(t, "chat.txt", "{\"user_name\":\"You\"}\n{\"mes\":\"x\",\"is_user\":true}\n")
	if tr, _, err := LoadTranscript(st2); err != nil || len(tr.Messages) != 1 || tr.Messages[0].Role != "user" {
		t.Errorf("jsonl by content: %v %+v", err, tr)
	}
	_, ds, _ = LoadTranscript(writeTemp(t, "bad.jsonl", "{\"user_name\":\"You\"}\n{\"name\":\"x\"}\n[1]\n"))
	if len(ds) != 2 || ds[0].Line != 2 || ds[1].Line != 3 {
		t.Errorf("bad jsonl: %+v", ds)
	}
}

func TestVars(t *testing.T) {
	p := writeTemp(t, "v.yaml", "$schema: x\nstory-phase: act2\ngold: 7\ninventory: [torch]\n")
	v, ds, err := LoadVars(p)
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	want := map[string]any{"story-phase": "act2", "gold": 7.0, "inventory": []any{"torch"}}
	if !reflect.DeepEqual(v.Values, want) || v.Pos["gold"] != (Pos{File: p, Line: 3, Col: 7}) {
		t.Errorf("vars %+v %+v", v.Values, v.Pos)
	}
	_, ds, _ = LoadVars(writeTemp(t, "l.yaml", "- a\n"))
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "must be a mapping from variable id to value, not a list") {
		t.Errorf("list vars: %+v", ds)
	}
}

func TestDetectKind(t *testing.T) {
	cases := map[string]Kind{
		"messages: []\n":                  KindTranscript,
		"- {role: user, content: x}\n":    KindTranscript,
		"- {id: a}\n":                     KindLorebook,
		"name: x\n":                       KindLorebook,
		"gold: 3\nphase: act1\n":          KindVars,
		`{"spec": "chara_card_v2"}`:       KindLorebook,
		`{"entries": {"0": {"key": []}}}`: KindLorebook,
	}
	for src, want := range cases {
		root, err := ParseBytes("x", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := DetectKind("x", root); got != want {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
	}
	if DetectKind("a.jsonl", nil) != KindTranscript {
		t.Error("jsonl")
	}
}

// TestPositionsInEscapedStrings: offsets in content map to source columns
// through JSON and YAML escapes, surrogate pairs and ” in single quotes.
func TestPositionsInEscapedStrings(t *testing.T) {
	p := writeTemp(t, "b.json", `[{"id": "a", "section": "examples",`+"\n"+
		` "content": "l1\nl2 caf\u00e9 \ud83d\ude00 \"q\" \\ 千代 tavern"}]`)
	lb := mustLoad(t, p)
	e := lb.Entries[0]
	if want := "l1\nl2 café 😀 \"q\" \\ 千代 tavern"; e.Content != want {
		t.Fatalf("content %q", e.Content)
	}
	src := ` "content": "l1\nl2 caf\u00e9 \ud83d\ude00 \"q\" \\ 千代 tavern"}]`
	for _, word := range []string{"l1", "l2", "café", "😀", "q", "千代", "tavern"} {
		off := strings.Index(e.Content, word)
		srcWord := map[string]string{"café": `caf\u00e9`, "😀": `\ud83d`}[word]
		if srcWord == "" {
			srcWord = word
		}
		col := len([]rune(src[:strings.Index(src, srcWord)])) + 1
		if got := e.PosInContent(off); got != (Pos{File: p, Line: 2, Col: col}) {
			t.Errorf("%q: got %d:%d, want 2:%d", word, got.Line, got.Col, col)
		}
	}
	y := writeTemp(t, "s.yaml", "id: a\nsection: examples\ncontent: 'it''s the tavern'\n")
	e = mustLoad(t, y).Entries[0]
	if got := e.PosInContent(strings.Index(e.Content, "tavern")); got != (Pos{File: y, Line: 3, Col: 21}) {
		t.Errorf("single quoted: %v", got)
	}
	m := writeTemp(t, "m.yaml", "id: a\nsection: examples\ncontent: \"runs over\n  two lines\"\n")
	e = mustLoad(t, m).Entries[0]
	if got := e.PosInContent(12); got != (Pos{File: m, Line: 3, Col: 11}) {
		t.Errorf("multi-line quoted falls back to ContentPos: %v", got)
	}
}
