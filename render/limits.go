package render

import (
	"fmt"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// StoppedRegex phrases, for Result.Limits, a regular-expression keyword of
// entry e that the render's clock stopped.
func StoppedRegex(e *schema.Entry, s match.Stopped) string {
	return fmt.Sprintf("%s: entry %q: keyword %s %s", e.Pos, e.ID, match.Shorten(s.Keyword, 80), s.Explain())
}

// LongKeywords phrases, for Result.Warnings, every keyword of the book over
// match.MaxKeywordLen, and the keyword at which the book's distinct keywords
// pass match.MaxKeywordTotal: they never match.
func LongKeywords(book *schema.Lorebook) []string {
	if book == nil {
		return nil
	}
	var out []string
	all := 0 // every keyword's bytes: the distinct ones are counted only when these pass the limit
	for _, e := range book.Entries {
		if e != nil {
			for _, k := range e.Keywords {
				all += len(k.Text)
			}
			for _, k := range e.SecondaryKeywords {
				all += len(k.Text)
			}
		}
	}
	var seen map[string]bool
	if all > match.MaxKeywordTotal {
		seen = map[string]bool{}
	}
	total := 0
	for _, e := range book.Entries {
		if e == nil {
			continue
		}
		for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
			for _, k := range kws {
				if seen != nil && !seen[k.Text] && len(k.Text) <= match.MaxKeywordLen {
					seen[k.Text] = true
					if total += len(k.Text); total > match.MaxKeywordTotal && total-len(k.Text) <= match.MaxKeywordTotal {
						out = append(out, fmt.Sprintf("%s: entry %q: the lorebook's distinct keywords add up to over %d MiB here, the limit for all keywords together: this one and those after it never match",
							k.Pos, e.ID, match.MaxKeywordTotal>>20))
					}
				}
				if len(k.Text) > match.MaxKeywordLen {
					out = append(out, fmt.Sprintf("%s: entry %q: keyword %q is %d bytes long, over the limit of %d: it never matches",
						k.Pos, e.ID, match.Shorten(k.Text, 40), len(k.Text), match.MaxKeywordLen))
				}
			}
		}
	}
	return out
}
