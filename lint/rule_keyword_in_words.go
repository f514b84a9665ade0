package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lorekit/lore/match"
)

// checkKeywordInWords reports a primary keyword that fires inside other words —
// words of the lorebook's own text (recursion scans it) and common words of
// the book's languages, which every chat is full of: "Ai" fires inside said,
// again, wait, "Nia" inside insomnia. It is reported whether or not the
// keyword also overlaps another keyword (keyword-overlap): the two are
// different accidents.
//
// The candidate words are joined into one text and the shared automaton runs
// over it once, so the cost is one pass over the distinct words, whatever the
// number of keywords. Inflections and derivations of the keyword itself do not
// count (see insideWord), nor do keywords with matchWholeWords, which the
// matcher already refuses inside words.
func checkKeywordInWords(c *Context) {
	idx := c.keywords()
	nLit := idx.m.LiteralGroups()
	if nLit == 0 {
		return
	}
	book := c.contentWords()
	langs := c.languages()
	lists := append(append([]*commonWords(nil), langs.spaced...), langs.unspaced...)

	type cand struct {
		word string
		list int // -1: the lorebook's text
		rank int // lower first
	}
	n, size := len(book.list), 0 // candidates and their bytes, at most
	for _, w := range book.list {
		size += len(w)
	}
	for _, cw := range lists {
		n += len(cw.words)
		for _, w := range cw.words {
			size += len(w)
		}
	}
	cands := make([]cand, 0, n)
	starts := make([]int, 0, n)
	var b strings.Builder
	b.Grow(size + n)
	add := func(w string, list, rank int) {
		starts = append(starts, b.Len())
		cands = append(cands, cand{w, list, rank})
		b.WriteString(w)
		b.WriteByte('\n')
	}
	for i, w := range book.list {
		add(w, -1, -book.count[i])
	}
	// A common word is a candidate once: not when the book has it, nor
	// when an earlier list did.
	listed := map[string]bool{}
	for li, cw := range lists {
		for r, w := range cw.words {
			if !listed[w] && !book.has(w) {
				listed[w] = true
				add(w, li, r)
			}
		}
	}
	joined := b.String()
	at := joinedCursor{starts: starts}
	want := c.insideWordGroups(idx, false)
	in := make([][]int, nLit) // group → candidate words it fires inside
	found := false
	idx.m.Occurrences(joined, func(o match.Occurrence) {
		if o.Group >= nLit || !want[o.Group] {
			return
		}
		w := at.of(o.Start)
		if w < 0 {
			return
		}
		word := cands[w].word
		// An occurrence running on into the next word (a keyword holding
		// a line break) is in neither.
		if e := o.End - starts[w]; e <= len(word) && insideWord(word, o.Start-starts[w], e) {
			in[o.Group] = append(in[o.Group], w)
			found = true
		}
	})
	if !found {
		return
	}
	said := map[int]string{}  // group → the message's description of its words
	told := newToldOnce(nLit) // a keyword written twice is one finding (duplicate-keyword says the rest)
	for p, ref := range idx.refs {
		if ref.secondary {
			continue
		}
		g := idx.m.PatternGroup(p)
		if g < 0 || g >= nLit || told.already(ref.entry, g) {
			continue
		}
		ws := in[g]
		e := c.Book.Entries[ref.entry]
		if len(ws) == 0 || !c.substringKeyword(e, ref.kw.Text) {
			continue
		}
		told.mark(ref.entry, g)
		desc, ok := said[g]
		if !ok {
			sort.Ints(ws)
			ws = compactInts(ws)
			// Candidates' words are distinct, so the order is total; only
			// the first three are named.
			before := func(i, j int) bool {
				a, b := &cands[i], &cands[j]
				switch {
				case a.list != b.list:
					return a.list < b.list
				case a.rank != b.rank:
					return a.rank < b.rank
				}
				return a.word < b.word // the lorebook's words as often as each other
			}
			first := firstInOrder(ws, 3, before)
			names := make([]string, len(first))
			for i, w := range first {
				names[i] = cands[w].word
			}
			fromBook := 0
			perList := make([]int, len(lists))
			for _, w := range ws {
				if l := cands[w].list; l < 0 {
					fromBook++
				} else {
					perList[l]++
				}
			}
			var parts []string
			if fromBook > 0 {
				parts = append(parts, fmt.Sprintf("%d in this lorebook's text", fromBook))
			}
			for l, n := range perList {
				if n > 0 {
					parts = append(parts, nWords(n, "common "+lists[l].name+" word"))
				}
			}
			word := "words"
			if len(ws) == 1 {
				word = "word"
			}
			desc = fmt.Sprintf("%d other %s, such as %s (%s)", len(ws), word, quoteFirst(names, len(ws)), strings.Join(parts, ", "))
			if len(ws) == 1 {
				desc = fmt.Sprintf("the word %q (%s)", names[0], parts[0])
			}
			said[g] = desc
		}
		advice := c.wholeWordsAdvice(ref.kw.Text) + " or use a longer keyword"
		if match.NoWordBoundaries(ref.kw.Text) {
			advice = "whole-word matching does not apply to this script, so use a longer keyword"
		}
		group := "%d entries have the keyword " + quote(ref.kw.Text) + ", which fires inside " + desc + "; " + advice
		c.reportGrouped(e, ref.kw.Pos, group, entryName(e),
			"keyword %q fires inside %s; %s", ref.kw.Text, desc, advice)
	}
}

// firstInOrder returns the first n of xs in the order before gives, which
// must be total: a selection, not a sort of all of xs.
func firstInOrder(xs []int, n int, before func(a, b int) bool) []int {
	top := make([]int, 0, n)
	for _, x := range xs {
		i := len(top)
		for i > 0 && before(x, top[i-1]) {
			i--
		}
		if i == n {
			continue
		}
		if len(top) < n {
			top = append(top, 0)
		}
		copy(top[i+1:], top[i:len(top)-1])
		top[i] = x
	}
	return top
}
