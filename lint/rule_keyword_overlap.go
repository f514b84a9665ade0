package lint

import (
	"sort"
	"strings"

	"github.com/lorekit/lore/match"
)

// checkKeywordOverlap reports primary keywords that match inside longer text the
// creator did not mean: another entry's keyword ("bar" inside "barrel bar"), or a
// word of the lorebook's own content ("bar" inside "barrel"). Both are found by
// running the shared automaton once over a joined text — all keyword texts, then
// the set of distinct content words — never by comparing keywords pairwise.
// Keywords with matchWholeWords are left out (the matcher already refuses their
// hits inside words), and so are keywords written without word boundaries (CJK,
// Thai): they always match as substrings, which whole-word-cjk explains.
func checkKeywordOverlap(c *Context) {
	idx := c.keywords()
	eligible := func(p int) bool {
		ref := idx.refs[p]
		return !ref.secondary && substringKeyword(c.Book.Entries[ref.entry], ref.kw.Text) &&
			!match.NoWordBoundaries(ref.kw.Text)
	}

	// 1. A keyword inside another entry's keyword.
	var texts []int // pattern index of each joined keyword text
	var starts []int
	var b strings.Builder
	for p, ref := range idx.refs {
		if ref.secondary || match.IsRegex(ref.kw.Text) {
			continue
		}
		texts = append(texts, p)
		starts = append(starts, b.Len())
		b.WriteString(ref.kw.Text)
		b.WriteString("\n") // a separator no keyword spans
	}
	joined := b.String()
	// An entry that has the longer keyword itself fires with it anyway: for
	// each normalised keyword, the entries that carry it as a primary keyword.
	groupOf := map[int]int{}
	groups := idx.m.Groups()
	for g := range groups {
		for _, p := range groups[g].Patterns {
			groupOf[p] = g
		}
	}
	carries := func(entry, pattern int) bool {
		g, ok := groupOf[pattern]
		if !ok {
			return false
		}
		for _, p := range groups[g].Patterns {
			if r := idx.refs[p]; r.entry == entry && !r.secondary {
				return true
			}
		}
		return false
	}
	inKeyword := map[int][]int{} // contained pattern → containing patterns
	for _, h := range idx.m.Find(joined) {
		if !eligible(h.Pattern) {
			continue
		}
		t := sort.SearchInts(starts, h.Start+1) - 1
		if t < 0 {
			continue
		}
		outer := texts[t]
		end := len(joined) - 1
		if t+1 < len(starts) {
			end = starts[t+1] - 1
		}
		if idx.refs[outer].entry == idx.refs[h.Pattern].entry {
			continue // an entry's own longer keyword fires the entry anyway
		}
		if h.Start == starts[t] && h.End == end {
			continue // the same keyword: keyword-collision's case
		}
		if carries(idx.refs[h.Pattern].entry, outer) {
			continue
		}
		inKeyword[h.Pattern] = append(inKeyword[h.Pattern], outer)
	}
	for p := range idx.refs {
		outers := inKeyword[p]
		if len(outers) == 0 {
			continue
		}
		ref := idx.refs[p]
		e := c.Book.Entries[ref.entry]
		o := idx.refs[outers[0]]
		more := ""
		if n := distinctEntries(idx, outers) - 1; n > 0 {
			more = " (and keywords of " + itoa(n) + " more entries)"
		}
		c.Report(e, ref.kw.Pos,
			"keyword %q matches inside %q, a keyword of entry %q at %s%s: this entry fires whenever that one does; set matchWholeWords: true or use a longer keyword",
			ref.kw.Text, o.kw.Text, c.Book.Entries[o.entry].ID, lineOf(o.kw.Pos), more)
	}

	// 2. A keyword inside a word of the lorebook's own text.
	words := c.contentWords()
	b.Reset()
	wstarts := make([]int, len(words.list))
	for i, w := range words.list {
		wstarts[i] = b.Len()
		b.WriteString(w)
		b.WriteString("\n")
	}
	joined = b.String()
	inWord := map[int][]int{} // pattern → word indexes
	for _, h := range idx.m.Find(joined) {
		if !eligible(h.Pattern) {
			continue
		}
		w := sort.SearchInts(wstarts, h.Start+1) - 1
		if w < 0 || (h.Start == wstarts[w] && h.End == wstarts[w]+len(words.list[w])) {
			continue // the whole word is the keyword: a real mention
		}
		if h.Start == wstarts[w] && inflection(words.list[w][h.End-wstarts[w]:]) {
			continue // "dragon" in "dragons": matching the plural is why it is a substring keyword
		}
		inWord[h.Pattern] = append(inWord[h.Pattern], w)
	}
	for p := range idx.refs {
		ws := inWord[p]
		if len(ws) == 0 || len(inKeyword[p]) > 0 {
			continue
		}
		// The most frequent words first: they are the ones chats will contain.
		sort.SliceStable(ws, func(i, j int) bool { return words.count[ws[i]] > words.count[ws[j]] })
		names := make([]string, 0, len(ws))
		seen := map[int]bool{}
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				names = append(names, words.list[w])
			}
		}
		ref := idx.refs[p]
		c.Report(c.Book.Entries[ref.entry], ref.kw.Pos,
			"keyword %q also fires inside %s, used in this lorebook's text; set matchWholeWords: true or use a longer keyword",
			ref.kw.Text, wordList(names))
	}
}

func wordList(names []string) string {
	s := quoteList(names, 3)
	if len(names) == 1 {
		return "the word " + s
	}
	return "the words " + s
}

func distinctEntries(idx *keywordIndex, ps []int) int {
	seen := map[int]bool{}
	for _, p := range ps {
		seen[idx.refs[p].entry] = true
	}
	return len(seen)
}

// words is the set of distinct words of every enabled entry's content, each
// with how often it occurs, sorted so the joined text is deterministic.
type words struct {
	list  []string
	count []int
}

func (c *Context) contentWords() *words {
	counts := map[string]int{}
	for _, e := range c.Book.Entries {
		if !e.Enabled {
			continue
		}
		for _, w := range strings.FieldsFunc(e.Content, notWordRune) {
			counts[strings.ToLower(w)]++
		}
	}
	ws := &words{list: make([]string, 0, len(counts))}
	for w := range counts {
		ws.list = append(ws.list, w)
	}
	sort.Strings(ws.list)
	ws.count = make([]int, len(ws.list))
	for i, w := range ws.list {
		ws.count[i] = counts[w]
	}
	return ws
}

// inflection reports an English inflectional ending: a keyword matching its own
// plural or past tense is what substring matching is for, not an accident.
func inflection(rest string) bool {
	switch rest {
	case "s", "es", "'s", "’s", "ed", "d", "ing":
		return true
	}
	return false
}

// notWordRune ends a word of the lorebook's text: anything but a letter or
// digit, and the characters of scripts written without spaces ("xml注释" holds
// the word "xml"; keywords in those scripts always match as substrings and are
// left out of this check anyway). match decides both, as activation does.
func notWordRune(r rune) bool {
	return !match.IsWordRune(r) || match.IsNoSpaceRune(r)
}
