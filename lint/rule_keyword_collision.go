package lint

import (
	"strings"

	"github.com/lorekit/lore/schema"
)

// checkKeywordCollision reports one keyword (after case folding and NFKC) on
// several entries, once per set of entries that share keywords: a keyword on
// twenty thousand entries is one finding naming them, not a finding per pair,
// and two entries that share a hundred keywords (a duplicated entry) are one
// finding listing the keywords. It reads the matcher's groups, so it is linear
// in the number of keywords. Entries with secondary keywords are left out:
// those narrow the match, so the entries do not always fire together.
//
// An entry whose content is only an opening or closing tag (`<敌人>`,
// `</敌人>`) wraps the entries it fires with: sharing their keywords is its
// purpose, so it is left out too.
//
// The finding is reported at the keyword of the second entry of the set and
// points at the first.
func checkKeywordCollision(c *Context) {
	idx := c.keywords()
	type collision struct {
		entries []int // ascending
		first   []int // per entry: its pattern of the first shared keyword
		later   []int // per shared keyword: the second entry's pattern of it
	}
	var sets []*collision
	byEntries := map[string]*collision{}
	var entries, first []int
	var key strings.Builder
	for g := 0; g < idx.m.NumGroups(); g++ {
		entries, first = entries[:0], first[:0]
		for _, p := range idx.m.GroupPatterns(g) {
			ref := idx.refs[p]
			if e := c.Book.Entries[ref.entry]; ref.secondary || len(e.SecondaryKeywords) > 0 || wrapper(e) {
				continue
			}
			if n := len(entries); n > 0 && entries[n-1] == ref.entry {
				continue // the same keyword twice on one entry fires it once
			}
			entries = append(entries, ref.entry)
			first = append(first, p)
		}
		if len(entries) < 2 {
			continue
		}
		key.Reset()
		for _, e := range entries {
			key.WriteString(itoa(e))
			key.WriteByte(',')
		}
		col := byEntries[key.String()]
		if col == nil {
			col = &collision{entries: append([]int(nil), entries...), first: append([]int(nil), first...)}
			byEntries[key.String()] = col
			sets = append(sets, col)
		}
		col.later = append(col.later, first[1])
	}
	const show = 5 // entries named in a message
	for _, col := range sets {
		e0, e1 := c.Book.Entries[col.entries[0]], c.Book.Entries[col.entries[1]]
		at := idx.refs[col.first[1]].kw.Pos
		firstAt := lineOf(idx.refs[col.first[0]].kw.Pos)
		kws := make([]string, len(col.later))
		for i, p := range col.later {
			kws[i] = idx.refs[p].kw.Text
		}
		switch n := len(col.entries); {
		case n == 2 && len(kws) == 1:
			c.Report(e1, at,
				"keyword %q is also on entry %s at %s: the two entries always fire together; keep the keyword on one of them, merge them, or add secondaryKeywords",
				kws[0], entryName(e0), firstAt)
		case n == 2:
			c.Report(e1, at,
				"%d keywords of entry %s are also on entry %s (at %s): %s; the two entries always fire together: merge them, or keep each keyword on one of them",
				len(kws), entryName(e1), entryName(e0), firstAt, quoteList(kws, 3))
		default:
			names := make([]string, 0, min(n, show))
			for _, i := range col.entries[:min(n, show)] {
				names = append(names, entryName(c.Book.Entries[i]))
			}
			list := strings.Join(names, ", ")
			if n > show {
				list += " and " + itoa(n-show) + " more"
			}
			what := "keyword " + quote(kws[0]) + " is"
			if len(kws) > 1 {
				what = itoa(len(kws)) + " keywords (" + quoteList(kws, 3) + ") are"
			}
			c.Report(e1, at,
				"%s on %d entries, which always fire together: %s (the first at %s); keep each keyword on one entry, merge them, or add secondaryKeywords",
				what, n, list, firstAt)
		}
	}
}

// wrapper reports an entry whose content is one opening or closing tag.
func wrapper(e *schema.Entry) bool {
	t := strings.TrimSpace(e.Content)
	return len(t) > 2 && t[0] == '<' && t[len(t)-1] == '>' && !strings.ContainsAny(t[1:len(t)-1], "<>\n")
}
