package lint

import (
	"sort"

	"github.com/lorekit/lore/match"
)

// checkKeywordCollision reports one normalised keyword on several entries. It reads
// the matcher's groups (every distinct normalised literal with the patterns that
// share it), so it is linear in the number of keywords. Entries with secondary
// keywords are left out: those narrow the match, so the two do not always fire
// together. Each later occurrence points at the first one.
func checkKeywordCollision(c *Context) {
	idx := c.keywords()
	// Findings are gathered per pair (later entry, first entry) so that two
	// entries sharing a hundred keywords — an imported book with a duplicated
	// entry — make one finding, not a hundred.
	type pair struct{ later, first int }
	shared := map[pair][][2]int{} // → (later entry's pattern, first entry's pattern)
	var order []pair
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
			k := pair{ref.entry, f.entry}
			if _, ok := shared[k]; !ok {
				order = append(order, k)
			}
			shared[k] = append(shared[k], [2]int{p, first})
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
	var regexOrder []string
	for p, ref := range idx.refs {
		if match.IsRegex(ref.kw.Text) && !ref.secondary {
			if _, ok := byText[ref.kw.Text]; !ok {
				regexOrder = append(regexOrder, ref.kw.Text)
			}
			byText[ref.kw.Text] = append(byText[ref.kw.Text], p)
		}
	}
	for _, t := range regexOrder {
		if len(byText[t]) > 1 {
			report(byText[t])
		}
	}
	const spell = 3 // up to this many shared keywords get a finding each
	for _, k := range order {
		ps := shared[k]
		sort.Slice(ps, func(i, j int) bool { return ps[i][0] < ps[j][0] })
		e, fe := c.Book.Entries[k.later], c.Book.Entries[k.first]
		if len(ps) <= spell {
			for _, p := range ps {
				ref := idx.refs[p[0]]
				c.Report(e, ref.kw.Pos,
					"keyword %q is also on entry %q at %s: the two entries always fire together; keep the keyword on one of them, merge them, or add secondaryKeywords",
					ref.kw.Text, fe.ID, lineOf(idx.refs[p[1]].kw.Pos))
			}
			continue
		}
		texts := make([]string, len(ps))
		for i, p := range ps {
			texts[i] = idx.refs[p[0]].kw.Text
		}
		c.Report(e, idx.refs[ps[0][0]].kw.Pos,
			"%d keywords of entry %q are also on entry %q (at %s): %s; the two entries always fire together: merge them, or keep each keyword on one of them",
			len(ps), e.ID, fe.ID, lineOf(idx.refs[ps[0][1]].kw.Pos), quoteList(texts, spell))
	}
}
