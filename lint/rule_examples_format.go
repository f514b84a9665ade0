package lint

import (
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// checkExamplesFormat parses examples entries the way assembly does
// (render.ParseExamples) and reports content the model would not see as example
// turns: no speaker line at all, lines before a block's first speaker (sent as a
// system note, nobody's words), and empty <START> blocks.
func checkExamplesFormat(c *Context) {
	var users, chars []string
	if p := c.Book.Manifest.Persona; p != nil && p.Name != "" {
		users = append(users, p.Name)
	}
	if ch := c.Book.Manifest.Character; ch != "" {
		chars = append(chars, ch)
	}
	for _, e := range c.Book.Entries {
		if !e.Enabled || e.Section != schema.SectionExamples || e.Content == "" || worldInfoAtExamples(e) ||
			c.rejectedField(e, "section") || c.neverSent(e) {
			continue
		}
		blocks := render.ParseExamples(e.Content, users, chars)
		turns := 0
		for _, b := range blocks {
			turns += len(b.Turns)
		}
		if turns == 0 {
			c.Report(e, e.FieldPos("content"), "examples entry %s has no speaker lines; start each turn with `{{user}}:` or `{{char}}:` so it is sent as an example chat", entryName(e))
			continue
		}
		for _, b := range blocks {
			switch {
			case len(b.Preamble) > 0:
				c.Report(e, e.PosInContent(b.Preamble[0].Offset), "line before the first speaker of an example chat is sent as a system note, not as a turn; start it with `{{user}}:` or `{{char}}:`, or move it out of the examples")
			case len(b.Turns) == 0 && b.Started:
				c.Report(e, e.PosInContent(b.Offset), "empty example chat: a <START> with no turns after it; remove the line or write the turns")
			}
		}
	}
}

// worldInfoAtExamples reports an entry imported from SillyTavern world info
// placed before or after the example messages (positions 5 and 6): lore text
// that sits next to the examples, not example dialogue, so it owes nothing to
// the examples' format. A card's character_book keeps ST's position under its
// own extensions.
func worldInfoAtExamples(e *schema.Entry) bool {
	for _, ext := range e.Extensions {
		m, ok := ext.(map[string]any)
		if !ok {
			continue
		}
		pos, ok := m["position"].(float64)
		if inner, isMap := m["extensions"].(map[string]any); !ok && isMap {
			pos, ok = inner["position"].(float64)
		}
		if ok && (pos == 5 || pos == 6) {
			return true
		}
	}
	return false
}
