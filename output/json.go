package output

import (
	"io"

	"github.com/lorekit/lore/render"
)

// jsonOutput is SPEC §7's stable contract: {"messages", "activated", "report"}.
type jsonOutput struct{}

func (jsonOutput) Write(w io.Writer, r *render.Result) error {
	doc := struct {
		Messages  []render.Message      `json:"messages"`
		Activated []render.ActivatedOut `json:"activated"`
		Report    *render.Report        `json:"report"`
	}{r.Messages, r.Activated, r.Report}
	// Empty lists print as [], never null: scripts index into them.
	if doc.Messages == nil {
		doc.Messages = []render.Message{}
	}
	if doc.Activated == nil {
		doc.Activated = []render.ActivatedOut{}
	}
	return writeJSON(w, doc)
}
