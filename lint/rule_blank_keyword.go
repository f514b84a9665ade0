package lint

import (
	"strings"

	"github.com/lorekit/lore/schema"
)

// checkBlankKeyword reports a keyword that is empty or only spaces (it never
// matches: the matcher skips it, and an engine that did not would fire on
// every message), and one with spaces around it: matching is literal, so
// " dragon" needs a space before it and misses "Dragon" at the start of a
// message. The fix trims the spaces, and drops a keyword left empty.
func checkBlankKeyword(c *Context) {
	for _, e := range c.Book.Entries {
		if !e.Enabled {
			continue
		}
		for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
			for _, k := range kws {
				t := strings.TrimSpace(k.Text)
				switch {
				case t == "":
					c.Report(e, k.Pos, "keyword %q of entry %s is blank: it never matches; remove it", k.Text, entryName(e))
				case t != k.Text:
					c.Report(e, k.Pos, "keyword %q has spaces around it, which must then be in the text too (it misses %q at the start or end of a message); write %q", k.Text, t, t)
				}
			}
		}
	}
}
