package lint

import (
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// checkSlowRegex reports a /regex/ keyword that nests unbounded quantifiers,
// as (a+)+ or (\w+\s?)*: a backtracking engine (JavaScript's, so SillyTavern,
// Yumina and lore's engines of theirs) takes time doubling with each
// character of a text that almost matches. lore stops such a match at its
// time limit; the engines themselves hang.
func checkSlowRegex(c *Context) {
	for _, e := range c.Book.Entries {
		for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
			for _, k := range kws {
				if len(k.Text) > match.MaxKeywordLen || !match.IsJSRegex(k.Text) {
					continue
				}
				if nest := match.NestedQuantifier(k.Text); nest != "" {
					c.Report(e, k.Pos, "regular expression %s repeats %s, a repetition inside a repetition: a JavaScript engine (SillyTavern, Yumina) backtracks on it for a time that doubles with each character of a text that almost matches, and lore stops such a match after %s; repeat the inner part once (a+ rather than (a+)+)", k.Text, nest, match.RegexMatchTime)
				}
			}
		}
	}
}

// checkKeywordTooLong reports a keyword over match.MaxKeywordLen bytes: it
// never matches.
func checkKeywordTooLong(c *Context) {
	for _, e := range c.Book.Entries {
		for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
			for _, k := range kws {
				if len(k.Text) > match.MaxKeywordLen {
					c.Report(e, k.Pos, "keyword %q is %d bytes long, over lore's limit of %d for a keyword: it never matches; use a shorter keyword (a name or a phrase)", match.Shorten(k.Text, 40), len(k.Text), match.MaxKeywordLen)
				}
			}
		}
	}
}
