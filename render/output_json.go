package render

import "io"

// jsonOutput is SPEC §7's stable contract: {"messages", "activated", "report"}.
type jsonOutput struct{}

func (jsonOutput) Write(w io.Writer, r *Result) error {
	doc := struct {
		Messages  []Message      `json:"messages"`
		Activated []ActivatedOut `json:"activated"`
		Report    *Report        `json:"report"`
	}{r.Messages, r.Activated, r.Report}
	// Empty lists print as [], never null: scripts index into them.
	if doc.Messages == nil {
		doc.Messages = []Message{}
	}
	if doc.Activated == nil {
		doc.Activated = []ActivatedOut{}
	}
	return writeJSON(w, doc)
}
