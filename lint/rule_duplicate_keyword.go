package lint

import (
	"slices"
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// checkDuplicateKeyword reports a keyword written twice on one entry (after
// case folding and NFKC, as matching compares them): the second one changes
// nothing. Harmless, hence info; the fix drops it. Across entries the same
// keyword is keyword-collision's.
func checkDuplicateKeyword(c *Context) {
	var buf []int
	for _, e := range c.Book.Entries {
		if !e.Enabled {
			continue
		}
		for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
			if len(kws) < 2 {
				continue
			}
			buf = firstOfSame(kws, buf)
			for i, f := range buf {
				if f >= 0 {
					k := &kws[i]
					c.Report(e, k.Pos, "keyword %q is written twice on entry %s (first at %s): the second changes nothing; remove it", k.Text, entryName(e), lineOf(kws[f].Pos))
				}
			}
		}
	}
}

// firstOfSame gives, per keyword, the index of the first keyword before it
// that matching cannot tell from it (-1 for none, and for blank keywords,
// which are blank-keyword's). A few plain ASCII keywords, most lists, are
// compared pairwise ignoring case, which is what folding them does; others
// through a map of their normalised forms. The result is in buf's array.
func firstOfSame(kws []schema.Keyword, buf []int) []int {
	first := slices.Grow(buf[:0], len(kws))[:len(kws)]
	if len(kws) <= 8 && plainASCII(kws) {
		for i := range kws {
			first[i] = -1
			if blank(kws[i].Text) {
				continue
			}
			for j := range i {
				if strings.EqualFold(kws[j].Text, kws[i].Text) {
					first[i] = j
					break
				}
			}
		}
		return first
	}
	return sameNormalized(kws, first)
}

// sameNormalized is firstOfSame through the keywords' normalised forms,
// written to first.
func sameNormalized(kws []schema.Keyword, first []int) []int {
	seen := make(map[string]int, len(kws))
	for i := range kws {
		first[i] = -1
		n := kws[i].Text
		if blank(n) {
			continue
		}
		if !match.IsRegex(n) {
			n = match.Normalize(n)
		}
		if f, ok := seen[n]; ok {
			first[i] = f
			continue
		}
		seen[n] = i
	}
	return first
}

func blank(k string) bool { return strings.TrimSpace(k) == "" }

// plainASCII says every keyword is ASCII and none a regular expression.
func plainASCII(kws []schema.Keyword) bool {
	for _, k := range kws {
		if !match.IsASCII(k.Text) || match.IsRegex(k.Text) {
			return false
		}
	}
	return true
}
