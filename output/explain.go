package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
)

// WriteExplanation prints, for one entry, whether it is in the prompt, where,
// and every reason activation and the budget gave (`lore render --explain ID`).
// It returns an error when the lorebook has no entry with that id; Suggest
// offers the nearest id for the message.
func WriteExplanation(w io.Writer, r *render.Result, id string, color bool) error {
	p := painter(color)
	e := r.Entry(id)
	if e == nil {
		return fmt.Errorf("no entry %q in the lorebook", id)
	}
	var b strings.Builder
	title := p.paint("1", line(e.ID))
	if e.Name != "" && e.Name != e.ID {
		title += fmt.Sprintf(" (%s)", line(e.Name))
	}
	title += ", " + line(e.Section)
	if pos := e.Pos.String(); pos != "-" {
		title += ", " + line(pos)
	}
	b.WriteString(title + "\n")

	if in := r.InPrompt(id); in != nil {
		b.WriteString(p.paint("1;32", "in the prompt") + fmt.Sprintf(": step %d (%s), %s\n",
			in.Step, stepTitles[in.Step], describeTrigger(*in)))
	} else {
		b.WriteString(p.paint("1;31", "not in the prompt") + "\n")
	}
	if x := r.Explanations()[id]; x != nil {
		for _, r := range x.Reasons {
			b.WriteString("  - " + line(r.Text()) + "\n")
		}
	}
	if r.Report != nil {
		if cut := r.Report.HistoryCut.Text(); cut != "" {
			b.WriteString(p.paint("2", "the chat: "+cut) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ExplanationJSON is `lore render --explain ID --format json`: the entry, where
// it is in the prompt (Step 0 and no trigger when it is not), and the reasons.
type ExplanationJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Section  string `json:"section"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	InPrompt bool   `json:"inPrompt"`
	// Activated says the engine let it in, before the budget; Recursion is
	// then the level it activated at, whether or not the budget kept it.
	Activated bool            `json:"activated"`
	Step      int             `json:"step,omitempty"`
	Depth     *int            `json:"depth,omitempty"`
	Trigger   *render.Trigger `json:"trigger,omitempty"`
	Recursion int             `json:"recursion"`
	Reasons   []ReasonJSON    `json:"reasons"`
}

// ReasonJSON is one reason of an explanation: its code, the entry field it
// comes from and where that field is (file only when it is not the entry's),
// its params, and the sentence for people.
type ReasonJSON struct {
	Code   reason.Code   `json:"code"`
	Field  string        `json:"field,omitempty"`
	File   string        `json:"file,omitempty"`
	Line   int           `json:"line,omitempty"`
	Column int           `json:"column,omitempty"`
	Params reason.Params `json:"params,omitempty"`
	Text   string        `json:"text"`
}

// WriteExplanationJSON prints the explanation of one entry as one JSON object.
func WriteExplanationJSON(w io.Writer, r *render.Result, id string) error {
	e := r.Entry(id)
	if e == nil {
		return fmt.Errorf("no entry %q in the lorebook", id)
	}
	x := ExplanationJSON{ID: e.ID, Name: e.Name, Section: e.Section, File: e.Pos.File, Line: e.Pos.Line,
		Column: e.Pos.Col, Reasons: []ReasonJSON{}}
	if a := r.InPrompt(id); a != nil {
		tr := a.Trigger
		x.InPrompt, x.Step, x.Depth, x.Trigger, x.Recursion = true, a.Step, a.Depth, &tr, a.Recursion
	}
	if why := r.Explanations()[id]; why != nil {
		for _, r := range why.Reasons {
			j := ReasonJSON{Code: r.Code, Field: r.Field, Line: r.Pos.Line, Column: r.Pos.Col, Params: r.Params, Text: r.Text()}
			if r.Pos.File != e.Pos.File {
				j.File = r.Pos.File
			}
			x.Reasons = append(x.Reasons, j)
		}
		if !x.InPrompt && why.Active {
			x.Activated, x.Recursion = true, why.Level // activated, then left out
		}
	}
	x.Activated = x.Activated || x.InPrompt
	return writeJSON(w, x)
}

// Suggest returns the id of ids nearest to id by edit distance, or "" when
// none is close enough to be what the user meant.
func Suggest(id string, ids []string) string {
	best, bestD := "", -1
	for _, c := range ids {
		d := diag.EditDistance(id, c)
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > max(2, len([]rune(id))/3) {
		return ""
	}
	return best
}
