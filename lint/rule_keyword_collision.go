package lint

import (
	"sort"
	"strconv"
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
	// groupsOf counts each entry's distinct primary keywords (groups), to
	// tell entries that share all their keywords from ones that share some.
	groupsOf := make([]int, len(c.Book.Entries))
	for g := 0; g < idx.m.NumGroups(); g++ {
		entries, first = entries[:0], first[:0]
		last := -1
		for _, p := range idx.m.GroupPatterns(g) {
			if ref := idx.refs[p]; !ref.secondary && ref.entry != last {
				groupsOf[ref.entry]++
				last = ref.entry
			}
		}
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
		together := c.together(col.entries, len(kws), groupsOf)
		switch n := len(col.entries); {
		case n == 2 && len(kws) == 1:
			c.Report(e1, at,
				"keyword %q is also on entry %s at %s: %s; keep the keyword on one of them, merge them, or add secondaryKeywords",
				kws[0], entryName(e0), firstAt, together)
		case n == 2:
			c.Report(e1, at,
				"%d keywords of entry %s are also on entry %s (at %s): %s; %s: merge them, or keep each keyword on one of them",
				len(kws), entryName(e1), entryName(e0), firstAt, quoteList(kws, 3), together)
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
			if together == "they always fire together" {
				c.Report(e1, at,
					"%s on %d entries, which always fire together: %s (the first at %s); keep each keyword on one entry, merge them, or add secondaryKeywords",
					what, n, list, firstAt)
				break
			}
			c.Report(e1, at,
				"%s on %d entries: %s (the first at %s); %s; keep each keyword on one entry, merge them, or add secondaryKeywords",
				what, n, list, firstAt, together)
		}
	}
}

// together says what sharing keywords does to entries, truly: they always
// fire together only when the shared keywords are all their keywords and
// none has conditions; else each shared keyword fires them all (and each
// also fires on its own keywords, or only when its conditions hold). The
// engine lint judges by may then still send one of them, or roll for one
// (SillyTavern's inclusion groups and probabilities): that is said too.
func (c *Context) together(entries []int, shared int, groupsOf []int) string {
	all, conds := "the two entries", false
	if len(entries) > 2 {
		all = "they"
	}
	var owners []string // entries with keywords of their own
	for _, i := range entries {
		if groupsOf[i] > shared {
			owners = append(owners, entryName(c.Book.Entries[i]))
		}
		conds = conds || len(c.Book.Entries[i].Conditions) > 0
	}
	own := len(owners) > 0
	ownNote := "each also fires on keywords of its own"
	if own && len(owners) < len(entries) {
		verb := " also fires"
		if len(owners) > 1 {
			verb = " also fire"
		}
		ownNote = owners[0] + verb + " on keywords of its own"
		if len(owners) > 1 {
			last := len(owners[:min(len(owners), 3)]) - 1
			ownNote = strings.Join(owners[:last], ", ") + " and " + owners[last] + verb + " on keywords of their own"
		}
		if len(owners) > 3 {
			ownNote = itoa(len(owners)) + " of them also fire on keywords of their own"
		}
	}
	var out string
	switch {
	case !own && !conds:
		out = all + " always fire together"
	case shared == 1 && len(entries) == 2:
		out = "it fires both entries wherever it appears"
	case shared == 1:
		out = "it fires them all wherever it appears"
	default:
		out = "each of them fires " + map[bool]string{true: "both entries", false: "them all"}[len(entries) == 2] + " wherever it appears"
	}
	switch {
	case own && conds:
		out += " (those whose conditions hold; " + ownNote + ")"
	case own:
		out += " (" + ownNote + ")"
	case conds:
		out += " (those whose conditions hold)"
	}
	if apart := c.apart(entries); apart != "" {
		out = strings.Replace(out, "always fire together", "always activate together", 1) + ", but " + apart
	}
	return out
}

// apart is what still keeps entries apart that activate together, in the
// engine lint judges by: an inclusion group two of them share (of which one
// entry is sent), a probability under 100%; "" when nothing does.
func (c *Context) apart(entries []int) string {
	if c.Engine.Chances == nil {
		return ""
	}
	inGroup := map[string]int{}
	var rolled []string
	for _, i := range entries {
		e := c.Book.Entries[i]
		p, groups := c.Engine.Chances(e, i)
		if p < 100 {
			rolled = append(rolled, entryName(e)+" "+strconv.FormatFloat(p, 'f', -1, 64)+"% of the time")
		}
		for _, g := range groups {
			inGroup[g]++
		}
	}
	var groups []string
	for g, n := range inGroup {
		if n > 1 {
			groups = append(groups, g)
		}
	}
	sort.Strings(groups)
	title := c.engineSays()
	var says []string
	switch len(groups) {
	case 0:
	case 1:
		says = append(says, title+" sends only one entry of their inclusion group "+strconv.Quote(groups[0]))
	default:
		says = append(says, title+" sends only one entry of each of their inclusion groups "+quoteList(groups, 3))
	}
	if len(rolled) > 0 {
		says = append(says, title+" sends "+strings.Join(rolled, ", "))
	}
	return strings.Join(says, ", and ")
}

// wrapper reports an entry whose content is one opening or closing tag.
func wrapper(e *schema.Entry) bool {
	t := strings.TrimSpace(e.Content)
	return len(t) > 2 && t[0] == '<' && t[len(t)-1] == '>' && !strings.ContainsAny(t[1:len(t)-1], "<>\n")
}
