package lore

import (
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// kwRef is what a matcher pattern stands for.
type kwRef struct {
	entry     int
	secondary bool
	kw        int // index in Keywords or SecondaryKeywords
}

// keywordIndex is the matcher over every keyword that can activate an entry,
// with what each pattern stands for. It depends on the lorebook only (not on
// variables, the transcript or the window), so one render's activations share
// it: Render builds it once for both of its activations.
type keywordIndex struct {
	matcher *match.Matcher
	refs    []kwRef // by pattern
	// badKW holds, by entry, the patterns that do not compile and why.
	badKW map[int][]badKeyword
	// nPrimary and nSecondary count each entry's usable (non-blank)
	// keywords. primaries lists each entry's primary patterns, one per
	// matcher group it has a keyword in (its first spelling there), in
	// keyword order; secPatterns its secondary patterns; members each
	// matcher group's primary patterns, one per entry.
	nPrimary, nSecondary []int
	primaries            [][]int
	secPatterns          [][]int
	members              [][]int
}

type badKeyword struct {
	secondary bool
	kw        int
	err       error
}

// newKeywordIndex compiles the keywords of every enabled entry that is not
// always sent; conditions are applied when hits are read, so the index does
// not depend on the variables.
func newKeywordIndex(book *schema.Lorebook) *keywordIndex {
	n := len(book.Entries)
	x := &keywordIndex{nPrimary: make([]int, n), nSecondary: make([]int, n)}
	var ps []match.Pattern
	for i, e := range book.Entries {
		if e == nil || !e.Enabled || e.AlwaysSend {
			continue
		}
		for k, kw := range e.Keywords {
			if strings.TrimSpace(kw.Text) == "" {
				continue
			}
			x.nPrimary[i]++
			x.refs = append(x.refs, kwRef{entry: i, kw: k})
			ps = append(ps, match.Pattern{Text: kw.Text, WholeWords: e.MatchWholeWords, Owner: i})
		}
		if x.nPrimary[i] == 0 {
			continue // no way in: its secondaries do not matter
		}
		for k, kw := range e.SecondaryKeywords {
			if strings.TrimSpace(kw.Text) == "" {
				continue
			}
			x.nSecondary[i]++
			x.refs = append(x.refs, kwRef{entry: i, secondary: true, kw: k})
			ps = append(ps, match.Pattern{Text: kw.Text, WholeWords: e.MatchWholeWords, Owner: i})
		}
	}
	m, errs := match.Compile(ps)
	x.matcher = m
	for _, err := range errs {
		if pe, ok := err.(*match.PatternError); ok {
			if x.badKW == nil {
				x.badKW = map[int][]badKeyword{}
			}
			r := x.refs[pe.Index]
			x.badKW[r.entry] = append(x.badKW[r.entry], badKeyword{secondary: r.secondary, kw: r.kw, err: pe.Err})
		}
	}
	x.members = make([][]int, m.NumGroups())
	x.primaries = make([][]int, n)
	x.secPatterns = make([][]int, n)
	for p, r := range x.refs {
		g := m.PatternGroup(p)
		switch {
		case r.secondary:
			x.secPatterns[r.entry] = append(x.secPatterns[r.entry], p)
		case g >= 0 && !x.hasGroup(r.entry, g):
			x.primaries[r.entry] = append(x.primaries[r.entry], p)
			x.members[g] = append(x.members[g], p)
		}
	}
	return x
}

// hasGroup says whether entry already has a primary pattern in group g (two
// spellings of one keyword, "Tavern" and "tavern", count once). An entry has
// few keywords, so the scan is short.
func (x *keywordIndex) hasGroup(entry, g int) bool {
	for _, p := range x.primaries[entry] {
		if x.matcher.PatternGroup(p) == g {
			return true
		}
	}
	return false
}

// patternError is the compile error of one keyword, if any.
func (x *keywordIndex) patternError(entry int, secondary bool, kw int) error {
	for _, b := range x.badKW[entry] {
		if b.secondary == secondary && b.kw == kw {
			return b.err
		}
	}
	return nil
}

func (x *keywordIndex) keywordOf(book *schema.Lorebook, h match.Hit) string {
	return x.keywordAt(book, h).Text
}

// keywordAt is the keyword a hit is of, with its position.
func (x *keywordIndex) keywordAt(book *schema.Lorebook, h match.Hit) schema.Keyword {
	r := x.refs[h.Pattern]
	e := book.Entries[r.entry]
	if r.secondary {
		return e.SecondaryKeywords[r.kw]
	}
	return e.Keywords[r.kw]
}
