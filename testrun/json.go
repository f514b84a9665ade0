package testrun

import (
	"encoding/json"
	"io"

	"github.com/lorekit/lore/diag"
)

// jsonWriter is the stable contract for scripts: {"summary", "problems",
// "cases", "snapshots"}. Lists are [] when empty, never null.
type jsonWriter struct{}

type jsonReport struct {
	Summary   jsonSummary       `json:"summary"`
	Problems  []diag.Diagnostic `json:"problems"`
	Cases     []jsonCase        `json:"cases"`
	Snapshots []SnapshotChange  `json:"snapshots"`
}

type jsonSummary struct {
	Passed      int `json:"passed"`
	Failed      int `json:"failed"`
	CouldNotRun int `json:"couldNotRun"`
	Total       int `json:"total"`
}

type jsonCase struct {
	File     string        `json:"file"`
	Line     int           `json:"line"`
	Column   int           `json:"column"`
	Name     string        `json:"name"`
	Engine   string        `json:"engine,omitempty"`
	Status   Status        `json:"status"`
	Error    string        `json:"error,omitempty"`
	ErrorAt  string        `json:"errorAt,omitempty"`
	Failures []jsonFailure `json:"failures"`
}

type jsonFailure struct {
	File     string            `json:"file"`
	Line     int               `json:"line"`
	Column   int               `json:"column"`
	Kind     string            `json:"kind"`
	Message  string            `json:"message"`
	Expected string            `json:"expected"`
	Got      string            `json:"got"`
	Turn     int               `json:"turn,omitempty"`
	Run      int               `json:"run,omitempty"`
	Seed     *int64            `json:"seed,omitempty"`
	Explain  []jsonExplanation `json:"explain"`
	Diff     string            `json:"diff,omitempty"`
	Findings []diag.Diagnostic `json:"findings,omitempty"`
}

type jsonExplanation struct {
	ID       string   `json:"id"`
	InPrompt bool     `json:"inPrompt"`
	Reasons  []string `json:"reasons"`
}

func (jsonWriter) Write(w io.Writer, r *Report) error {
	p, f, e := r.Counts()
	doc := jsonReport{
		Summary:   jsonSummary{Passed: p, Failed: f, CouldNotRun: e, Total: len(r.Cases)},
		Problems:  append([]diag.Diagnostic{}, r.Problems...),
		Cases:     []jsonCase{},
		Snapshots: append([]SnapshotChange{}, r.Snapshots...),
	}
	for _, c := range r.Cases {
		jc := jsonCase{File: c.File, Line: c.Pos.Line, Column: c.Pos.Col, Name: c.Name, Engine: c.Engine,
			Status: c.Status, Error: c.Error, Failures: []jsonFailure{}}
		if c.Status == Error {
			jc.ErrorAt = c.ErrorPos.String()
		}
		for _, x := range c.Failures {
			jf := jsonFailure{File: x.Pos.File, Line: x.Pos.Line, Column: x.Pos.Col, Kind: x.Kind, Message: x.Message,
				Expected: x.Expected, Got: x.Got, Turn: x.Turn, Run: x.Run, Explain: []jsonExplanation{}, Diff: x.Diff, Findings: x.Findings}
			if x.Run > 0 {
				seed := x.Seed
				jf.Seed = &seed
			}
			for _, ex := range x.Explain {
				jf.Explain = append(jf.Explain, jsonExplanation{ID: ex.ID, InPrompt: ex.InPrompt, Reasons: ex.Reasons})
			}
			jc.Failures = append(jc.Failures, jf)
		}
		doc.Cases = append(doc.Cases, jc)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
