package output

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/internal/golden"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// fixture loads one of the repository's fixtures as `lore render` would.
func fixture(t testing.TB, name string) *render.Input {
	t.Helper()
	dir := filepath.Join("..", "fixtures", name)
	bookPath := filepath.Join(dir, "book")
	if _, err := os.Stat(bookPath); err != nil {
		bookPath += ".yaml"
	}
	book, ds, err := schema.Load(bookPath)
	if err != nil {
		t.Fatalf("load %s: %v", bookPath, err)
	}
	for _, d := range ds {
		t.Logf("%s: %s", d.Pos(), d.Message)
	}
	tr, _, err := schema.LoadTranscript(filepath.Join(dir, "transcript.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	in := &render.Input{Book: book, Transcript: tr, Settings: book.Manifest.Settings}
	if vars, _, err := schema.LoadVars(filepath.Join(dir, "vars.yaml")); err == nil {
		in.Vars = vars.Values
	}
	c, err := tokenize.Get(in.Settings.Tokenizer)
	if err != nil {
		t.Fatal(err)
	}
	in.Counter = c
	return in
}

func renderTo(t testing.TB, in *render.Input, format string, o OutputOptions) []byte {
	t.Helper()
	res, err := lore.Render(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := NewOutput(format, o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := out.Write(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), got)
}

func TestGoldenOutputs(t *testing.T) {
	cases := []struct {
		file    string
		fixture string
		format  string
		opts    OutputOptions
		tight   bool // a 700-token context: Required over its cap, cards and history cut
	}{
		{"eldoria.txt", "eldoria", "text", OutputOptions{}, false},
		{"eldoria-report-color.txt", "eldoria", "text", OutputOptions{Color: true, Report: true}, false},
		{"eldoria.json", "eldoria", "json", OutputOptions{}, false},
		{"eldoria.openai.json", "eldoria", "openai", OutputOptions{}, false},
		{"eldoria.anthropic.json", "eldoria", "anthropic", OutputOptions{}, false},
		{"sakura.txt", "sakura", "text", OutputOptions{Report: true}, false},
		{"sakura.json", "sakura", "json", OutputOptions{}, false},
		{"sakura.openai.json", "sakura", "openai", OutputOptions{}, false},
		{"sakura.anthropic.json", "sakura", "anthropic", OutputOptions{}, false},
		{"eldoria-tight.txt", "eldoria", "text", OutputOptions{Report: true}, true},
		{"eldoria-tight.json", "eldoria", "json", OutputOptions{}, true},
		{"eldoria-tight.anthropic.json", "eldoria", "anthropic", OutputOptions{}, true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			in := fixture(t, c.fixture)
			if c.tight {
				in.Settings.ContextTokens, in.Settings.ResponseReserve = 700, 100
			}
			checkGolden(t, c.file, renderTo(t, in, c.format, c.opts))
		})
	}
}

func TestGoldenExplain(t *testing.T) {
	in := fixture(t, "eldoria")
	res, err := lore.Render(in)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, id := range []string{"sleeping-stag", "silver-order", "act2-ambush", "rich-traveller", "greeting", "whisperwood", "seraphina-examples"} {
		if err := WriteExplanation(&b, res, id, false); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
	}
	checkGolden(t, "eldoria.explain.txt", b.Bytes())
	b.Reset()
	for _, id := range []string{"sleeping-stag", "rich-traveller"} {
		if err := WriteExplanationJSON(&b, res, id); err != nil {
			t.Fatal(err)
		}
	}
	checkGolden(t, "eldoria.explain.json", b.Bytes())
	if err := WriteExplanation(&b, res, "nope", false); err == nil {
		t.Error("explaining an unknown id: no error")
	}
	if err := WriteExplanationJSON(&b, res, "nope"); err == nil {
		t.Error("explaining an unknown id: no error")
	}
}

// TestDeterministic renders every format twice from freshly loaded inputs:
// the bytes must not differ (no map order, no time).
func TestDeterministic(t *testing.T) {
	for _, fx := range []string{"eldoria", "sakura"} {
		for _, f := range OutputFormats() {
			a := renderTo(t, fixture(t, fx), f, OutputOptions{Report: true, Color: true})
			for i := 0; i < 3; i++ {
				if b := renderTo(t, fixture(t, fx), f, OutputOptions{Report: true, Color: true}); !bytes.Equal(a, b) {
					t.Fatalf("%s %s: two renders differ", fx, f)
				}
			}
		}
	}
}

// TestJSONContract checks SPEC §7's shape on the eldoria fixture: the keys,
// steps in order, sources on every message, activated in prompt order with
// depth only for injected entries.
func TestJSONContract(t *testing.T) {
	var doc struct {
		Messages []struct {
			Role    string    `json:"role"`
			Content *string   `json:"content"`
			Step    int       `json:"step"`
			Sources *[]string `json:"sources"`
		} `json:"messages"`
		Activated []map[string]any `json:"activated"`
		Report    map[string]any   `json:"report"`
	}
	raw := renderTo(t, fixture(t, "eldoria"), "json", OutputOptions{})
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	last := 0
	for i, m := range doc.Messages {
		if m.Step < last || m.Step < 1 || m.Step > 13 || m.Step == render.StepBreakpoint {
			t.Errorf("message %d: step %d after %d", i, m.Step, last)
		}
		last = m.Step
		if m.Content == nil || m.Sources == nil {
			t.Errorf("message %d: content or sources missing", i)
		}
		if m.Role != "system" && m.Role != "user" && m.Role != "assistant" {
			t.Errorf("message %d: role %q", i, m.Role)
		}
	}
	var ids []string
	for _, a := range doc.Activated {
		ids = append(ids, a["id"].(string))
		_, hasDepth := a["depth"]
		if hasDepth != (a["id"] == "sleeping-stag") {
			t.Errorf("%v: depth present = %v", a["id"], hasDepth)
		}
	}
	want := "seraphina world-overview narrator-rules seraphina-examples old-maren silver-order whisperwood sleeping-stag status-format"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("activated %s\nwant      %s", got, want)
	}
	if doc.Report["tokenizer"] != "o200k_base" {
		t.Errorf("report %v", doc.Report)
	}
	if bytes.Contains(raw, []byte(`\u003c`)) {
		t.Error("JSON escapes < as \\u003c")
	}
}

// TestAnthropicShape: system blocks first, alternating roles starting with
// user, one cache_control, on the last block before the breakpoint.
func TestAnthropicShape(t *testing.T) {
	for _, fx := range []string{"eldoria", "sakura"} {
		var doc struct {
			System   []map[string]any `json:"system"`
			Messages []struct {
				Role    string           `json:"role"`
				Content []map[string]any `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(renderTo(t, fixture(t, fx), "anthropic", OutputOptions{}), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Messages) == 0 || doc.Messages[0].Role != "user" {
			t.Fatalf("%s: first message is not the user's", fx)
		}
		marks := 0
		for i, m := range doc.Messages {
			if i > 0 && m.Role == doc.Messages[i-1].Role {
				t.Errorf("%s: messages %d and %d share role %s", fx, i-1, i, m.Role)
			}
			for _, b := range m.Content {
				if b["text"] == "" {
					t.Errorf("%s: empty text block", fx)
				}
				if b["cache_control"] != nil {
					marks++
				}
			}
		}
		for _, b := range doc.System {
			if b["cache_control"] != nil {
				marks++
			}
		}
		if marks != 1 {
			t.Errorf("%s: %d cache_control marks, want 1", fx, marks)
		}
	}
}

func TestAnthropicEdgeCases(t *testing.T) {
	w := func(r *render.Result) string {
		var b bytes.Buffer
		if err := (anthropicOutput{}).Write(&b, r); err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(doc)
		return string(out)
	}
	tests := []struct {
		name string
		r    *render.Result
		want string
	}{
		{"empty", &render.Result{Breakpoint: -1}, `{"messages":[]}`},
		{"assistant first gets a user turn before it", &render.Result{Breakpoint: 0, Messages: []render.Message{
			{Role: "assistant", Content: "hi", Step: 1}, {Role: "user", Content: "yo", Step: 10}}},
			`{"messages":[{"content":[{"text":"[Start]","type":"text"}],"role":"user"},{"content":[{"cache_control":{"type":"ephemeral"},"text":"hi","type":"text"}],"role":"assistant"},{"content":[{"text":"yo","type":"text"}],"role":"user"}]}`},
		{"later system messages become user blocks; empty ones are skipped", &render.Result{Breakpoint: 1, Messages: []render.Message{
			{Role: "system", Content: "sys", Step: 1}, {Role: "system", Content: " ", Step: 1},
			{Role: "system", Content: "card", Step: 6}, {Role: "user", Content: "u", Step: 10}}},
			`{"messages":[{"content":[{"text":"card","type":"text"},{"text":"u","type":"text"}],"role":"user"}],"system":[{"cache_control":{"type":"ephemeral"},"text":"sys","type":"text"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := w(tt.r); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestNewOutputUnknown(t *testing.T) {
	if _, err := NewOutput("html5", OutputOptions{}); err == nil || !strings.Contains(err.Error(), "text, json, openai, anthropic") {
		t.Errorf("err = %v", err)
	}
}

func TestSuggest(t *testing.T) {
	ids := []string{"sleeping-stag", "old-maren", "silver-order"}
	for in, want := range map[string]string{"sleepng-stag": "sleeping-stag", "old-marn": "old-maren", "dragon": "", "": ""} {
		if got := Suggest(in, ids); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNamedMessages: a message an engine names (SillyTavern's example
// dialogue) carries the name in openai and json, starts its text with it in
// anthropic (no names there), and shows it in the text header.
func TestNamedMessages(t *testing.T) {
	r := &render.Result{Breakpoint: -1, Messages: []render.Message{
		{Role: "system", Content: render.MarkerExampleChat, Step: render.StepExamples},
		{Role: "system", Content: "Hi.", Name: "example_user", Step: render.StepExamples, Sources: []string{"ex"}},
		{Role: "user", Content: "yo", Step: render.StepHistory}}}
	write := func(o Output) string {
		var b bytes.Buffer
		if err := o.Write(&b, r); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, tc := range []struct {
		format string
		want   string
	}{
		{"openai", `"name": "example_user"`},
		{"json", `"name": "example_user"`},
		{"anthropic", `"text": "example_user: Hi."`},
		{"text", "system (example_user) · ex"},
	} {
		o, err := NewOutput(tc.format, OutputOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := write(o); !strings.Contains(got, tc.want) {
			t.Errorf("%s output lacks %q:\n%s", tc.format, tc.want, got)
		}
	}
	if got := write(openaiOutput{}); strings.Count(got, `"name"`) != 1 {
		t.Errorf("openai: only the named message has a name:\n%s", got)
	}
}
