package output

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// The text writers escape what comes from the book and the chat: an entry
// name with OSC 52 (clipboard), an id with a screen clear, content with
// colours; the prompt's own line breaks stay.
func TestTextWritersEscapeControls(t *testing.T) {
	e := &schema.Entry{ID: "a\x1b[2J", Name: "Bad\x1b]52;c;aGk=\a", Section: "system-presets", Pos: schema.Pos{File: "b\x1b.yaml", Line: 1, Col: 1}}
	r := &render.Result{Engine: "lore", Book: &schema.Lorebook{Manifest: schema.Manifest{Name: "Evil\x1b]0;t\a"}, Entries: []*schema.Entry{e}},
		Messages:   []render.Message{{Role: "system", Content: "line one \x1b[31mred\nline two\r", Step: render.StepSystemPresets, Sources: []string{e.ID}}},
		Activated:  []render.ActivatedOut{{ID: e.ID, Step: render.StepSystemPresets, Trigger: render.Trigger{Keyword: "k\x1b[1A", In: "message:0"}}},
		Breakpoint: -1}
	r.SetExplanations(map[string]*render.Explanation{e.ID: {Active: true, Reasons: []reason.Reason{{Code: reason.LoreKeywordMatched, Params: reason.Params{reason.P("keyword", "k\x1b[2K"), reason.P("message", 0), reason.P("excerpt", "x")}}}}})
	sgr := regexp.MustCompile("\x1b\\[[0-9;]*m")
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":    func(b *bytes.Buffer) error { return textOutput{OutputOptions{Color: true}}.Write(b, r) },
		"explain": func(b *bytes.Buffer) error { return WriteExplanation(b, r, e.ID, true) },
		"turns":   func(b *bytes.Buffer) error { return WriteTurns(b, "text", []int{1}, []*render.Result{r}, true) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		if out := sgr.ReplaceAllString(b.String(), ""); strings.ContainsAny(out, "\x1b\a\r") {
			t.Errorf("%s: a control character got through:\n%q", name, b.String())
		}
		if name == "text" && !strings.Contains(b.String(), "  line one \\x1b[31mred\n  line two\\r\n") {
			t.Errorf("text: the content's lines are not kept:\n%s", b.String())
		}
	}
}
