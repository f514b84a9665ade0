package lint

import (
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/schema"
)

// checkWholeWordCJK explains that matchWholeWords cannot apply to a keyword in a
// script written without spaces (Chinese, Japanese, Thai…): it matches as a
// substring (SPEC §1).
func checkWholeWordCJK(c *Context) {
	for _, e := range c.Book.Entries {
		for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
			for _, k := range kws {
				if !c.ownWholeWords(e, k.Text) {
					continue // whole words off, or on only by an engine's global setting
				}
				if match.IsRegex(k.Text) || !match.NoWordBoundaries(k.Text) {
					continue
				}
				if c.Engine.WholeWordsNoSpaces != "" {
					c.ReportSeverity(diag.Warning, e, k.Pos, "keyword %q is written without word boundaries, with matchWholeWords: %s", k.Text,
						reason.Reason{Code: c.Engine.WholeWordsNoSpaces}.Text())
					continue
				}
				c.Report(e, k.Pos, "keyword %q is written without word boundaries: matchWholeWords does not apply and it matches as a substring (also inside longer words)", k.Text)
			}
		}
	}
}
