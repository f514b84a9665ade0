package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lorekit/lore/render"
)

// TurnFormats are the formats `lore render --turns` prints.
var TurnFormats = []string{"text", "json", "jsonl"}

// WriteTurns prints one generation per chat prefix (`lore render --turns`,
// `--turns-at`): for each, the chat length it was generated at, the entries
// in its prompt with where and why, and the timed effects it leaves for the
// next one. JSON: {"turns": [{"chatLength", "activated", "effects"}]};
// JSON Lines: one such turn object per line.
func WriteTurns(w io.Writer, format string, lengths []int, rs []*render.Result, color bool) error {
	tw, err := NewTurnWriter(w, format, color)
	if err != nil {
		return err
	}
	for i, r := range rs {
		if err := tw.Turn(i, lengths[i], r); err != nil {
			return err
		}
	}
	return tw.Close()
}

// TurnWriter writes the generations of --turns one at a time, as an engine
// hands them over (render.StreamTurns): nothing of a turn is kept once it
// is written, and the bytes are those of WriteTurns.
type TurnWriter struct {
	w      io.Writer
	format string
	p      painter
	n      int
}

// NewTurnWriter starts writing turns in format (TurnFormats).
func NewTurnWriter(w io.Writer, format string, color bool) (*TurnWriter, error) {
	switch format {
	case "", "text", "json", "jsonl":
	default:
		return nil, fmt.Errorf("--turns prints text, json or jsonl, not %s", format)
	}
	if format == "" {
		format = "text"
	}
	return &TurnWriter{w: w, format: format, p: painter(color)}, nil
}

// turnJSON is one generation in JSON.
type turnJSON struct {
	ChatLength int                   `json:"chatLength"`
	Activated  []render.ActivatedOut `json:"activated"`
	Effects    []render.Effect       `json:"effects"`
}

// Turn writes generation i, made at chat length length.
func (t *TurnWriter) Turn(i, length int, r *render.Result) error {
	defer func() { t.n++ }()
	if t.format == "text" {
		return t.text(i, length, r)
	}
	tj := turnJSON{ChatLength: length, Activated: r.Activated, Effects: r.Effects}
	if tj.Activated == nil {
		tj.Activated = []render.ActivatedOut{}
	}
	if tj.Effects == nil {
		tj.Effects = []render.Effect{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if t.format == "json" {
		// The document {"turns": [...]} as writeJSON would indent it.
		enc.SetIndent("    ", "  ")
		head := ",\n    "
		if t.n == 0 {
			head = "{\n  \"turns\": [\n    "
		}
		b.WriteString(head)
	}
	if err := enc.Encode(tj); err != nil {
		return err
	}
	out := b.Bytes()
	if t.format == "json" {
		out = bytes.TrimSuffix(out, []byte("\n"))
	}
	_, err := t.w.Write(out)
	return err
}

// Close ends the output (the JSON document's closing brackets).
func (t *TurnWriter) Close() error {
	if t.format != "json" {
		return nil
	}
	end := "\n  ]\n}\n"
	if t.n == 0 {
		end = "{\n  \"turns\": []\n}\n"
	}
	_, err := io.WriteString(t.w, end)
	return err
}

func (t *TurnWriter) text(i, length int, r *render.Result) error {
	p := t.p
	var b strings.Builder
	if i > 0 {
		b.WriteString("\n")
	}
	b.WriteString(p.paint("1;36", fmt.Sprintf("── turn %d · chat length %d ", i+1, length)) + "\n")
	if len(r.Activated) == 0 {
		b.WriteString(p.paint("2", "  nothing activated") + "\n")
	}
	for _, a := range r.Activated {
		b.WriteString("  " + p.paint("1", line(a.ID)) + " · " + line(place(a)) + p.paint("2", " — "+describeTrigger(a)) + "\n")
	}
	for _, e := range r.Effects {
		b.WriteString(p.paint("33", fmt.Sprintf("  %s: %s until the chat has %d messages", e.Kind, line(e.ID), e.End)) + "\n")
	}
	_, err := io.WriteString(t.w, b.String())
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
