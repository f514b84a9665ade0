package lint

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lorekit/lore/match"
)

// checkKeywordOverlap reports a primary keyword that fires inside a word of
// another entry's keyword ("En" inside "Nen", "Witch" inside "Switchblade"):
// whenever the chat mentions that one, this entry fires too, though nobody
// mentioned it. A keyword that is a whole word of the longer one ("Kurumi" in
// "Kurumi Tokisaki", "Shido" in "Shido's House") is a real mention and is left
// alone, as are inflections and derivations ("Spirit" in "Spirits", "magic"
// in "magical forest"; see insideWord).
//
// It runs the shared automaton once over the distinct keyword texts joined, so
// it never compares keywords pairwise. Keywords with matchWholeWords are left
// out (the matcher refuses their hits inside words), and so are keywords
// written without word boundaries (CJK, Thai), whose words lint cannot tell.
func checkKeywordOverlap(c *Context) {
	idx := c.keywords()
	nLit := idx.m.LiteralGroups()
	if nLit == 0 {
		return
	}
	starts := make([]int, nLit)
	var b strings.Builder
	for g := range nLit {
		starts[g] = b.Len()
		b.WriteString(idx.m.GroupText(g))
		b.WriteByte('\n') // a separator no keyword spans
	}
	joined := b.String()
	at := joinedCursor{starts: starts}
	want := c.insideWordGroups(idx, true)
	inside := make([][]int, nLit) // inner group → outer groups it fires inside
	found := false
	idx.m.Occurrences(joined, func(o match.Occurrence) {
		if o.Group >= nLit || !want[o.Group] {
			return // a regular expression (it says what it means), or a keyword never reported
		}
		t := at.of(o.Start)
		if t == o.Group {
			return
		}
		outer := idx.m.GroupText(t)
		s, e := o.Start-starts[t], o.End-starts[t]
		ws, we := c.wordAround(outer, s, e)
		if insideWord(outer[ws:we], s-ws, e-ws) {
			inside[o.Group] = append(inside[o.Group], t)
			found = true
		}
	})
	if !found {
		return
	}
	owners := primaryOwners(idx)
	told := newToldOnce(nLit) // a keyword written twice is one finding
	for p, ref := range idx.refs {
		if ref.secondary {
			continue
		}
		g := idx.m.PatternGroup(p)
		if g < 0 || g >= nLit || told.already(ref.entry, g) {
			continue
		}
		told.mark(ref.entry, g)
		outers := inside[g]
		if len(outers) == 0 {
			continue
		}
		e := c.Book.Entries[ref.entry]
		if !c.substringKeyword(e, ref.kw.Text) || match.NoWordBoundaries(ref.kw.Text) {
			continue
		}
		sort.Ints(outers)
		outers = compactInts(outers)
		inside[g] = outers
		first, more := -1, 0
		for _, t := range outers {
			os := owners[t]
			if len(os) == 0 {
				continue // only a secondary keyword: it activates nothing
			}
			if i := sort.SearchInts(os, ref.entry); i < len(os) && os[i] == ref.entry {
				continue // the entry has the longer keyword itself: it fires with it anyway
			}
			if first < 0 {
				first = t
			} else {
				more++
			}
		}
		if first < 0 {
			continue
		}
		op := firstPrimary(idx, first)
		o := idx.refs[op]
		tail := ""
		if more > 0 {
			tail = " and inside " + itoa(more) + " more keywords"
		}
		c.Report(e, ref.kw.Pos,
			"keyword %q fires inside %q, a keyword of entry %s at %s%s: this entry fires whenever that one does; %s or use a longer keyword",
			ref.kw.Text, o.kw.Text, entryName(c.Book.Entries[o.entry]), lineOf(o.kw.Pos), tail, c.wholeWordsAdvice(ref.kw.Text))
	}
}

// wordAround widens [s, e) of text to the word it lies in. ASCII is told
// from byteClasses' table.
func (c *Context) wordAround(text string, s, e int) (int, int) {
	ascii := c.byteClasses()
	for s > 0 {
		if b := text[s-1]; b < utf8.RuneSelf {
			if ascii[b]&wordChar == 0 {
				break
			}
			s--
			continue
		}
		r, n := utf8.DecodeLastRuneInString(text[:s])
		if c.notWordRune(r) {
			break
		}
		s -= n
	}
	for e < len(text) {
		if b := text[e]; b < utf8.RuneSelf {
			if ascii[b]&wordChar == 0 {
				break
			}
			e++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[e:])
		if c.notWordRune(r) {
			break
		}
		e += n
	}
	return s, e
}

// wholeWordsAdvice is "set matchWholeWords: true" in the book's format's words.
func (c *Context) wholeWordsAdvice(kw string) string {
	w := c.say().wholeWords
	if w == "" {
		return "reword it"
	}
	w = strings.Replace(w, "%s", regexp.QuoteMeta(kw), 1)
	return w + ","
}

// primaryOwners lists, per literal group, the entries that carry it as a
// primary keyword, ascending; the lists are parts of one array.
func primaryOwners(idx *keywordIndex) [][]int {
	out := make([][]int, idx.m.NumGroups())
	all := make([]int, 0, len(idx.refs))
	for g := range out {
		lo := len(all)
		for _, p := range idx.m.GroupPatterns(g) {
			if r := idx.refs[p]; !r.secondary && (len(all) == lo || all[len(all)-1] != r.entry) {
				all = append(all, r.entry)
			}
		}
		out[g] = all[lo:len(all):len(all)]
	}
	return out
}

// firstPrimary is the first primary pattern of a group.
func firstPrimary(idx *keywordIndex, g int) int {
	ps := idx.m.GroupPatterns(g)
	for _, p := range ps {
		if !idx.refs[p].secondary {
			return p
		}
	}
	return ps[0]
}

// insideWordGroups marks the literal groups that hold a primary keyword the
// inside-word rules can report: one that matches inside words (see
// substringKeyword) and, for keyword-overlap (spaced), is written with word
// boundaries. Occurrences of the other groups are skipped before any work.
// Both rules' marks are made in one pass over the keywords.
func (c *Context) insideWordGroups(idx *keywordIndex, spaced bool) []bool {
	k := 0
	if spaced {
		k = 1
	}
	if c.shared.inside[k] != nil {
		return c.shared.inside[k]
	}
	all, sp := make([]bool, idx.m.LiteralGroups()), make([]bool, idx.m.LiteralGroups())
	for p, ref := range idx.refs {
		g := idx.m.PatternGroup(p)
		if ref.secondary || g < 0 || g >= len(all) || all[g] && sp[g] {
			continue
		}
		if c.substringKeyword(c.Book.Entries[ref.entry], ref.kw.Text) {
			all[g] = true
			sp[g] = sp[g] || !match.NoWordBoundaries(ref.kw.Text)
		}
	}
	c.shared.inside = [2][]bool{all, sp}
	return c.shared.inside[k]
}

// toldOnce remembers, per group, the last entry told about it: the rules
// read idx.refs entry by entry, so "this entry was told about this group"
// needs no map of pairs.
type toldOnce []int32

func newToldOnce(groups int) toldOnce {
	t := make(toldOnce, groups)
	for i := range t {
		t[i] = -1
	}
	return t
}

func (t toldOnce) already(entry, g int) bool { return t[g] == int32(entry) }
func (t toldOnce) mark(entry, g int)         { t[g] = int32(entry) }

func compactInts(xs []int) []int {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// joinedCursor finds which of several texts joined into one holds an
// offset: the automaton reports occurrences by end offset, so each is in the
// text of the one before or a later one, and the cursor only moves forward;
// an occurrence out of that order (a regular expression's) is searched for.
type joinedCursor struct {
	starts []int // where each text starts, ascending
	t      int
}

func (c *joinedCursor) of(off int) int {
	if c.t >= len(c.starts) || c.starts[c.t] > off {
		c.t = sort.SearchInts(c.starts, off+1) - 1
		return c.t
	}
	for c.t+1 < len(c.starts) && c.starts[c.t+1] <= off {
		c.t++
	}
	return c.t
}
