package output

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lorekit/lore/render"
)

// TurnFormats are the formats `lore render --turns` prints.
var TurnFormats = []string{"text", "json"}

// WriteTurns prints one generation per chat prefix (`lore render --turns`,
// `--turns-at`): for each, the chat length it was generated at, the entries
// in its prompt with where and why, and the timed effects it leaves for the
// next one. JSON: {"turns": [{"chatLength", "activated", "effects"}]}.
func WriteTurns(w io.Writer, format string, lengths []int, rs []*render.Result, color bool) error {
	switch format {
	case "json":
		type turn struct {
			ChatLength int                   `json:"chatLength"`
			Activated  []render.ActivatedOut `json:"activated"`
			Effects    []render.Effect       `json:"effects"`
		}
		doc := struct {
			Turns []turn `json:"turns"`
		}{Turns: []turn{}}
		for i, r := range rs {
			t := turn{ChatLength: lengths[i], Activated: r.Activated, Effects: r.Effects}
			if t.Activated == nil {
				t.Activated = []render.ActivatedOut{}
			}
			if t.Effects == nil {
				t.Effects = []render.Effect{}
			}
			doc.Turns = append(doc.Turns, t)
		}
		return writeJSON(w, doc)
	case "text", "":
	default:
		return fmt.Errorf("--turns prints %s, not %s", strings.Join(TurnFormats, " or "), format)
	}
	p := painter(color)
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p.paint("1;36", fmt.Sprintf("── turn %d · chat length %d ", i+1, lengths[i])) + "\n")
		if len(r.Activated) == 0 {
			b.WriteString(p.paint("2", "  nothing activated") + "\n")
		}
		for _, a := range r.Activated {
			b.WriteString("  " + p.paint("1", line(a.ID)) + " · " + line(place(a)) + p.paint("2", " — "+describeTrigger(a)) + "\n")
		}
		for _, e := range r.Effects {
			b.WriteString(p.paint("33", fmt.Sprintf("  %s: %s until the chat has %d messages", e.Kind, line(e.ID), e.End)) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// place is where an engine with named insertion points put an entry
// ("before-char", "depth 4 as system"), or its step.
func place(a render.ActivatedOut) string {
	switch {
	case a.Position == "":
		return stepTitles[a.Step]
	case a.Depth != nil:
		return fmt.Sprintf("%s %d as %s", a.Position, *a.Depth, a.Role)
	case a.Order != nil:
		return a.Position + ", order " + strconv.Itoa(*a.Order)
	}
	return a.Position
}
