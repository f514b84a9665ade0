package lint

import (
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// checkKeywordCollision reports one normalised keyword on several entries. It reads
// the matcher's groups (every distinct normalised literal with the patterns that
// share it), so it is linear in the number of keywords. Entries with secondary
// keywords are left out: those narrow the match, so the two do not always fire
// together. Each later occurrence points at the first one.
func checkKeywordCollision(c *Context) {
	idx := c.keywords()
	report := func(pats []int) {
		first := -1
		for _, p := range pats {
			ref := idx.refs[p]
			e := c.Book.Entries[ref.entry]
			if ref.secondary || len(e.SecondaryKeywords) > 0 {
				continue
			}
			if first < 0 {
				first = p
				continue
			}
			f := idx.refs[first]
			if f.entry == ref.entry {
				continue // the same keyword twice on one entry fires it once
			}
			fe := c.Book.Entries[f.entry]
			c.Report(e, ref.kw.Pos,
				"keyword %q is also on entry %q at %s: the two entries always fire together; keep the keyword on one of them, merge them, or add secondaryKeywords",
				ref.kw.Text, fe.ID, lineOf(f.kw.Pos))
		}
	}
	for _, g := range idx.m.Groups() {
		if len(g.Owners) > 1 {
			report(g.Patterns)
		}
	}
	// Regular expressions are not in the groups; the same /pattern/ written on
	// two entries collides just the same.
	byText := map[string][]int{}
	var order []string
	for p, ref := range idx.refs {
		if match.IsRegex(ref.kw.Text) && !ref.secondary {
			if _, ok := byText[ref.kw.Text]; !ok {
				order = append(order, ref.kw.Text)
			}
			byText[ref.kw.Text] = append(byText[ref.kw.Text], p)
		}
	}
	for _, t := range order {
		if len(byText[t]) > 1 {
			report(byText[t])
		}
	}
}

// lineOf prints a position as file:line, the form messages use to point at
// another place.
func lineOf(p schema.Pos) string {
	if p.Line == 0 {
		return p.String()
	}
	return p.File + ":" + itoa(p.Line)
}
