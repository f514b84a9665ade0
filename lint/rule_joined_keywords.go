package lint

import (
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// checkJoinedKeywords reports a keyword that is really a list: "曹操，荀彧，曹仁"
// typed into one key field (fullwidth commas, 、, ; ；, | or, with care, ASCII
// commas). Every engine matches a key as one text, so it fires only where the
// whole list appears verbatim — in practice never — and the entry is dead to
// the names in it. The fix splits it into keywords of their own.
//
// An ASCII comma also appears inside real names ("Ringwood, Hampshire", "Henry
// John Temple, 3rd Viscount Palmerston"), so a key with commas only counts as a
// list when it has three parts or more, or two parts of one or two words that
// do not start with a capital (sword, blade). Regular expressions are left
// alone, and so is | inside parentheses ("(Throat of the World|Snow
// Throat)"): that is alternation syntax, not a list.
func checkJoinedKeywords(c *Context) {
	v := c.say()
	for _, e := range c.Book.Entries {
		if !e.Enabled {
			continue
		}
		for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
			for _, k := range kws {
				parts, sep := match.SplitJoined(k.Text)
				if len(parts) < 2 {
					continue
				}
				split := quoteList(parts, len(parts))
				if len(parts) > 6 {
					split = quoteList(parts, 4)
				}
				fix := "make each a keyword of its own: " + split + " (lore lint --fix splits it)"
				advice := "make each part a keyword of its own (lore lint --fix splits them)"
				if c.foreign() {
					fix = "make each one of the entry's " + v.keywords + ": " + split
					advice = "make each part one of the entry's " + v.keywords
				}
				group := "%d entries have a keyword that is a list joined by " + quote(sep) +
					", which fires only where the whole list is written; " + advice
				c.reportGrouped(e, k.Pos, group, entryName(e),
					"keyword %q is %d keywords joined by %q: it fires only where the whole text is written, never on %q alone; %s",
					k.Text, len(parts), sep, parts[0], fix)
			}
		}
	}
}
