package lint

import (
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// checkDuplicateKeyword reports a keyword written twice on one entry (after
// case folding and NFKC, as matching compares them): the second one changes
// nothing. Harmless, hence info; the fix drops it. Across entries the same
// keyword is keyword-collision's.
func checkDuplicateKeyword(c *Context) {
	for _, e := range c.Book.Entries {
		if !e.Enabled {
			continue
		}
		for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
			if len(kws) < 2 {
				continue
			}
			first := make(map[string]*schema.Keyword, len(kws))
			for i := range kws {
				k := &kws[i]
				n := k.Text
				if strings.TrimSpace(n) == "" {
					continue // blank-keyword's
				}
				if !match.IsRegex(n) {
					n = match.Normalize(n)
				}
				if f, ok := first[n]; ok {
					c.Report(e, k.Pos, "keyword %q is written twice on entry %s (first at %s): the second changes nothing; remove it", k.Text, entryName(e), lineOf(f.Pos))
					continue
				}
				first[n] = k
			}
		}
	}
}
