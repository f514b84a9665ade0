package sillytavern

import (
	"math"
	"sort"
	"unicode/utf8"

	"github.com/lorekit/lore/match"
)

// SillyTavern tests each key of each entry against the entry's window with
// a fresh regular expression or includes(). Here every distinct key is
// looked for once per text: the literal keys of all entries go into two
// match.Matchers (JavaScript's lower case on both sides, and exact for the
// case-sensitive ones, with SillyTavern's whole-word rule), each text of a
// generation (a message, a scanned injection, a pass's recursion text) is
// scanned once, and a key "matches in a window" when it was found in a text
// the window holds. That is the same answer, because no key can match
// across the \n\x01 SillyTavern joins texts with, and the joins are
// boundaries for whole words. Regular expressions run on the joined window,
// as in SillyTavern.

// keyRef is one key of one entry, resolved with that entry's case and
// whole-word settings.
type keyRef struct {
	text  string   // as matched (macros expanded and trimmed, or as written)
	regex *stRegex // a /regex/flags key
	pat   int      // literal: index into keyIndex.pats, -1 for none
	whole bool     // whole words apply (one word, matchWholeWords)
}

// keyIndex holds every distinct literal of a generation's keys.
type keyIndex struct {
	pats    []literal
	byText  map[literal]int
	regexes map[string]*stRegex
	lower   *match.Matcher
	exact   *match.Matcher
	lowerOf []int // the lower matcher's group → pats index
	exactOf []int
}

type literal struct {
	text  string // as written: the matcher folds it
	exact bool
}

func newKeyIndex() *keyIndex {
	return &keyIndex{byText: map[literal]int{}, regexes: map[string]*stRegex{}}
}

// ref resolves a key for an entry under the global settings.
func (ix *keyIndex) ref(key string, e *entry, s *Settings) keyRef {
	r := keyRef{text: key, pat: -1}
	if key == "" {
		return r
	}
	re, seen := ix.regexes[key]
	if !seen {
		re = parseRegex(key)
		ix.regexes[key] = re
	}
	if re != nil {
		r.regex = re
		return r
	}
	cs := s.CaseSensitive
	if e.caseSensitive != nil {
		cs = *e.caseSensitive
	}
	l := literal{text: key, exact: cs}
	if !cs {
		l.text = match.JSLower(key)
	}
	whole := s.MatchWholeWords
	if e.matchWholeWords != nil {
		whole = *e.matchWholeWords
	}
	r.whole = whole && !hasJSSpace(l.text)
	p, ok := ix.byText[l]
	if !ok {
		p = len(ix.pats)
		ix.byText[l] = p
		ix.pats = append(ix.pats, l)
	}
	r.pat = p
	return r
}

// build makes the matchers once every key is resolved. Each literal is a
// pattern of its own (texts are distinct), taken as text even when it looks
// like /a/b (SillyTavern decided it is not a regular expression), asking for
// whole words so that every occurrence says whether it is one.
func (ix *keyIndex) build() {
	var lower, exact []match.Pattern
	for i, l := range ix.pats {
		p := match.Pattern{Text: l.text, WholeWords: true, Literal: true, Owner: i}
		if l.exact {
			exact = append(exact, p)
		} else {
			lower = append(lower, p)
		}
	}
	compile := func(ps []match.Pattern, fold match.Fold, bounded func(string, int, int) bool) (*match.Matcher, []int) {
		if len(ps) == 0 {
			return nil, nil
		}
		m, _ := match.CompileWith(ps, match.Options{Fold: fold, Bounded: bounded, Blank: true})
		of := make([]int, m.NumGroups())
		for i, p := range ps {
			if g := m.PatternGroup(i); g >= 0 {
				of[g] = p.Owner
			}
		}
		return m, of
	}
	ix.lower, ix.lowerOf = compile(lower, match.FoldJSLower, lowerBounded)
	ix.exact, ix.exactOf = compile(exact, match.FoldNone, exactBounded)
}

// exactBounded is SillyTavern's whole-word rule, (?:^|\W)key(?:$|\W): no
// ASCII letter, digit or _ right before or after the occurrence (the bytes
// of a non-ASCII character are none of those, as its UTF-16 code units are
// not).
func exactBounded(text string, s, e int) bool {
	return (s == 0 || !wordByte(text[s-1])) && (e == len(text) || !wordByte(text[e]))
}

// lowerBounded is the rule on the lower-cased text, told from the original:
// the characters around the occurrence, lower-cased (the Kelvin sign K
// becomes an ASCII k).
func lowerBounded(text string, s, e int) bool {
	if s > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:s])
		if l := match.JSLower(string(r)); l != "" && wordByte(l[len(l)-1]) {
			return false
		}
	}
	if e < len(text) {
		r, _ := utf8.DecodeRuneInString(text[e:])
		if l := match.JSLower(string(r)); l != "" && wordByte(l[0]) {
			return false
		}
	}
	return true
}

// found records where each literal was found in a generation's texts: the
// newest message that has it (plain, and as a whole word), and whether an
// injection or a recursion text has it.
type found struct {
	first   [2][]int32 // [plain, whole] newest-first message index, math.MaxInt32 for none
	inject  [2][]bool
	recurse [2][]bool
	// recEntry is, for --explain, the entry whose content first had the
	// literal in a recursion text (-1 for none).
	recEntry []int32
	// source has bit i set when extra matching source i has the literal.
	source [2][]uint8
}

func newFound(ix *keyIndex, chat, inject, sources []string) *found {
	n := len(ix.pats)
	f := &found{}
	for k := range 2 {
		f.first[k] = make([]int32, n)
		for i := range f.first[k] {
			f.first[k][i] = math.MaxInt32
		}
		f.inject[k] = make([]bool, n)
		f.recurse[k] = make([]bool, n)
	}
	f.recEntry = make([]int32, n)
	for i := range f.recEntry {
		f.recEntry[i] = -1
	}
	// Newest first: a message only sets what no newer one set.
	for j, m := range chat {
		if m == "" {
			continue // holds no key; the messages past the scan's reach are left empty
		}
		ix.scan(m, func(p int, whole bool, _ int) {
			k := 0
			if whole {
				k = 1
			}
			if f.first[k][p] == math.MaxInt32 {
				f.first[k][p] = int32(j)
			}
		})
	}
	for _, t := range inject {
		ix.scan(t, func(p int, whole bool, _ int) { f.inject[b2i(whole)][p] = true })
	}
	for i, t := range sources {
		if t == "" {
			continue
		}
		for k := range 2 {
			if f.source[k] == nil {
				f.source[k] = make([]uint8, n)
			}
		}
		ix.scan(t, func(p int, whole bool, _ int) { f.source[b2i(whole)][p] |= 1 << i })
	}
	return f
}

// addRecurse records a pass's recursion text (the contents of es joined
// with line breaks) and returns the literals it holds that no earlier
// recursion text held.
func (f *found) addRecurse(ix *keyIndex, text string, es []*entry, contents []string) []int {
	ends := make([]int, len(contents)) // where each content ends in text
	at := 0
	for i, c := range contents {
		at += len(c)
		ends[i] = at
		at++
	}
	var fresh []int
	ix.scan(text, func(p int, whole bool, start int) {
		k := b2i(whole)
		if !f.recurse[k][p] {
			f.recurse[k][p] = true
			fresh = append(fresh, p)
		}
		if f.recEntry[p] < 0 && len(es) > 0 {
			i := sort.SearchInts(ends, start)
			f.recEntry[p] = int32(es[min(i, len(es)-1)].idx)
		}
	})
	return fresh
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// scan reports every literal found in text, once as plain and once more as
// whole when an occurrence is a whole word, with where the occurrence starts.
func (ix *keyIndex) scan(text string, fn func(p int, whole bool, start int)) {
	each := func(m *match.Matcher, of []int) {
		if m == nil {
			return
		}
		m.Occurrences(text, func(o match.Occurrence) {
			p := of[o.Group]
			fn(p, false, o.Start)
			if o.Bounded {
				fn(p, true, o.Start)
			}
		})
	}
	each(ix.lower, ix.lowerOf)
	each(ix.exact, ix.exactOf)
}

// has says whether a literal key is in a window: the n newest messages, the
// injections, the recursion texts when rec, and the extra matching sources
// the entry asks for (a bit set of them).
func (f *found) has(r keyRef, n int, rec bool, sources uint8) bool {
	k := b2i(r.whole)
	return int(f.first[k][r.pat]) < n || f.inject[k][r.pat] || rec && f.recurse[k][r.pat] ||
		sources != 0 && f.source[k] != nil && f.source[k][r.pat]&sources != 0
}

// in is matchKeys on a single text (for --explain's "where").
func (ix *keyIndex) in(r keyRef, text string) bool {
	switch {
	case r.regex != nil:
		return r.regex.test(matcher+text, nil)
	case r.pat < 0:
		return false
	}
	hit := false
	ix.scan(text, func(p int, whole bool, _ int) {
		hit = hit || p == r.pat && whole == r.whole
	})
	return hit
}

// keySet is every entry's keys resolved, with the automata over them.
type keySet struct {
	ix        *keyIndex
	owners    [][]int32  // literal → the entries whose primary or secondary keys have it
	regexed   []int      // entries with a regular-expression key
	primary   [][]keyRef // macros expanded, trimmed
	secondary [][]keyRef
	rawPrim   [][]keyRef // as written: group scoring reads them so
	rawSec    [][]keyRef
}

func newKeySet(entries []*entry, s *Settings, m *macros) *keySet {
	ks := &keySet{ix: newKeyIndex(), primary: make([][]keyRef, len(entries)), secondary: make([][]keyRef, len(entries)),
		rawPrim: make([][]keyRef, len(entries)), rawSec: make([][]keyRef, len(entries))}
	refs := func(keys []string, e *entry, expand bool) []keyRef {
		out := make([]keyRef, len(keys))
		for i, k := range keys {
			if expand {
				k = jsTrim(m.expand(k))
			}
			out[i] = ks.ix.ref(k, e, s)
		}
		return out
	}
	for i, e := range entries {
		ks.primary[i] = refs(e.keys, e, true)
		ks.secondary[i] = refs(e.secondary, e, true)
		ks.rawPrim[i] = refs(e.keys, e, false)
		ks.rawSec[i] = refs(e.secondary, e, false)
	}
	ks.ix.build()
	ks.owners = make([][]int32, len(ks.ix.pats))
	for i := range entries {
		regexed := false
		for _, rs := range [][]keyRef{ks.primary[i], ks.secondary[i]} {
			for _, r := range rs {
				switch {
				case r.regex != nil:
					regexed = true
				case r.pat >= 0:
					if o := ks.owners[r.pat]; len(o) == 0 || o[len(o)-1] != int32(i) {
						ks.owners[r.pat] = append(o, int32(i))
					}
				}
			}
		}
		if regexed {
			ks.regexed = append(ks.regexed, i)
		}
	}
	return ks
}
