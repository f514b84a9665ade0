package output

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// HTMLPartNames are the parts of `render --format html`'s page that another
// page can show on its own (lore serve's live preview): the header's summary
// line, the warnings, the prompt by step, the trace and the token chart. Each
// is a named template of html.tmpl, so both pages share one markup and
// `render --format html` stays what it was.
var HTMLPartNames = []string{"meta", "warnings", "prompt", "trace", "tokens"}

// HTMLOptions trims the trace's "Not in the prompt" table, which lists
// every entry left out (nearly all of a large book's), for a page that is
// rendered again on every message. `render --format html` uses none.
type HTMLOptions struct {
	// LeftOutFilter, when set, keeps only the entries it accepts.
	LeftOutFilter func(*schema.Entry) bool
	// LeftOutLimit, when above 0, keeps at most that many (the first by id);
	// the table then says how many more there are.
	LeftOutLimit int
}

// HTMLParts renders r's page once and returns each part of HTMLPartNames as
// escaped HTML (every piece of lorebook or chat text went through
// html/template), ready to be put in another page as it is.
func HTMLParts(r *render.Result, opts HTMLOptions) (map[string]template.HTML, error) {
	pg := buildHTMLPageWith(r, opts)
	parts := make(map[string]template.HTML, len(HTMLPartNames))
	for _, name := range HTMLPartNames {
		var b strings.Builder
		if name == "trace" {
			b.Grow(len(pg.LeftOutRows) + 256*len(pg.Activated) + 1024)
		}
		if err := htmlPageTemplate.ExecuteTemplate(&b, name, pg); err != nil {
			return nil, err
		}
		parts[name] = template.HTML(b.String())
	}
	return parts, nil
}

// HTMLStyle is the page's style sheet, for a page that shows its parts.
func HTMLStyle() template.CSS {
	var b bytes.Buffer
	// The part has no fields, so it cannot fail but on a broken template,
	// which the tests of the page would have caught.
	if err := htmlPageTemplate.ExecuteTemplate(&b, "style", nil); err != nil {
		return ""
	}
	return template.CSS(b.String())
}

// HTMLEntryAnchor is the element id of entry id's row in the trace part,
// for links to it from outside the parts.
func HTMLEntryAnchor(id string) string { return entryAnchor(id) }
