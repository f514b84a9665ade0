package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/lint"
	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// toy is an engine that exists only in this file: it sends every enabled
// entry that has content, always, in the system presets, and says so with
// the codes every engine shares.
type toy struct{}

var toyProfile = render.Profile{
	Name: "toy", Title: "Toy", New: func() render.Engine { return toy{} },
	Formats:   []string{"toy-format"},
	WordRune:  func(r rune) bool { return r >= 'a' && r <= 'z' },
	Recursion: render.RecursionOptIn, Budget: render.BudgetShares, AlwaysSent: render.AlwaysInBudget,
	Reads: []string{"content", "enabled"},
}

func (toy) Name() string             { return toyProfile.Name }
func (toy) Profile() *render.Profile { return &toyProfile }

func (toy) fate(e *schema.Entry) render.Fate {
	switch {
	case !e.Enabled:
		return render.Never(reason.New(reason.NeverDisabled, "enabled", e.FieldPos("enabled")))
	case strings.TrimSpace(e.Content) == "":
		return render.Never(reason.New(reason.LoreEmptyAfterMacros, "content", e.FieldPos("content")))
	}
	return render.Fate{Activation: "always", Placement: reason.New(reason.PlaceSystemPresets, "section", e.FieldPos("section"))}
}

func (t toy) Describe(in *render.Input) *render.Description {
	d := &render.Description{}
	for _, e := range in.Book.Entries {
		d.Fates = append(d.Fates, t.fate(e))
	}
	return d
}

func (t toy) Render(in *render.Input) (*render.Result, error) {
	res := &render.Result{Engine: "toy", Book: in.Book, Breakpoint: -1}
	res.SetExplanations(map[string]*render.Explanation{})
	for _, e := range in.Book.Entries {
		f := t.fate(e)
		x := &render.Explanation{Active: f.Sent()}
		if !f.Sent() {
			x.Reasons = []reason.Reason{f.Never}
		} else {
			x.Reasons = []reason.Reason{reason.New(reason.AlwaysSent, "content", e.FieldPos("content")), f.Placement}
			res.Messages = append(res.Messages, render.Message{Role: "system", Content: e.Content, Step: render.StepSystemPresets,
				Sources: []string{e.ID}})
			res.Activated = append(res.Activated, render.ActivatedOut{ID: e.ID, Step: render.StepSystemPresets,
				Trigger: render.Trigger{In: "always"}})
		}
		res.Explanations()[e.ID] = x
	}
	return res, nil
}

// TestToyEngine: an engine is its own package (here: this file) and one
// line in the registry. Registered, it is an --engine value, a format's
// engine, and lint and the outputs work through it — they know it only by
// its profile, its description and its codes.
func TestToyEngine(t *testing.T) {
	saved := engines
	engines = append(slices.Clone(engines), &toyProfile) // the one registry line
	t.Cleanup(func() { engines = saved })

	if !slices.Contains(Names(), "toy") || Title("toy") != "Toy" || ForFormat("toy-format") != "toy" {
		t.Fatalf("the registry does not list it: %v, %q, %q", Names(), Title("toy"), ForFormat("toy-format"))
	}
	path := filepath.Join(t.TempDir(), "book.yaml")
	if err := os.WriteFile(path, []byte(`entries:
  - id: tavern
    section: chat-history
    keywords: [tavern]
    content: The tavern.
  - id: blank
    section: chat-history
    keywords: [blank]
    content: ""
`), 0o644); err != nil {
		t.Fatal(err)
	}
	book, ds, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	name, _ := Choose("toy", book)
	judge, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := Get(Default)

	cfg := (&lint.Config{}).WithEnabled([]string{"engine-divergence"}).WithEngines(judge, base)
	var got []string
	for _, d := range lint.RunWith(book, nil, cfg, ds) {
		got = append(got, d.Pos().String()[len(filepath.Dir(path))+1:]+" "+d.Message+" ["+d.Rule+"]")
	}
	for _, want := range []string{
		`book.yaml:9:14 entry "blank" can never be sent by Toy: activated, but its content is empty after macros, so nothing is sent [unreachable-entry]`,
		`book.yaml:2:9 entry "tavern": Toy sends it always and puts it in system presets (step 1); lore's engine activates it on its keywords and puts it in the triggered block (step 6) [engine-divergence]`,
		`book.yaml:4:15 keywords of entry "tavern" are ignored: it is always sent (alwaysSend: true); remove them, or set alwaysSend: false so that they decide [keywords-ignored]`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("lint by the toy engine lacks\n  %s\ngot\n  %s", want, strings.Join(got, "\n  "))
		}
	}

	res, err := judge.Render(&render.Input{Book: book, Settings: schema.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	var text, explain bytes.Buffer
	out, _ := output.NewOutput("text", output.OutputOptions{})
	if err := out.Write(&text, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "The tavern.") {
		t.Errorf("text output:\n%s", text.String())
	}
	if err := output.WriteExplanationJSON(&explain, res, "tavern"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"code": "always-sent"`, `"text": "system presets (step 1)"`, `"field": "content"`, `"line": 5`} {
		if !strings.Contains(explain.String(), want) {
			t.Errorf("--explain --format json lacks %s:\n%s", want, explain.String())
		}
	}
}

// TestSchemaEnum: the schema's settings.engine takes the registry's names,
// in its order (`lore schema lorebook` prints them).
func TestSchemaEnum(t *testing.T) {
	b, err := schema.SchemaJSON("lorebook")
	if err != nil {
		t.Fatal(err)
	}
	if want := `"engine": {"enum": ["` + strings.Join(Names(), `", "`) + `"]`; !strings.Contains(string(b), want) {
		t.Errorf("the lorebook schema lacks %s", want)
	}
}
