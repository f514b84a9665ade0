package lint

import "strings"

// checkEmptyContent reports enabled entries whose content is empty or blank: they
// cost a slot (and a marker) and tell the model nothing.
func checkEmptyContent(c *Context) {
	for _, e := range c.Book.Entries {
		if e.Enabled && strings.TrimSpace(e.Content) == "" {
			c.Report(e, e.FieldPos("content"), "entry %q has no content; write it, or set enabled: false while it is a draft", e.ID)
		}
	}
}
