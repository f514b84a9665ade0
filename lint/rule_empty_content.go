package lint

import "strings"

// checkEmptyContent reports enabled entries whose content is empty or blank: they
// cost a slot (and a marker) and tell the model nothing.
func checkEmptyContent(c *Context) {
	for _, e := range c.Book.Entries {
		if e.Enabled && strings.TrimSpace(e.Content) == "" {
			c.reportGrouped(e, e.FieldPos("content"), "%d entries have no content; write them, or disable them while they are drafts", entryName(e),
				"entry %s has no content; write it, or set enabled: false while it is a draft", entryName(e))
		}
	}
}
