package match

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/lorekit/lore/match/internal/automaton"
)

// Pattern is one keyword to look for.
type Pattern struct {
	// Text is the keyword as written: a literal, or /pattern/flags.
	Text string
	// WholeWords asks that a literal match not be preceded or followed by a
	// letter or digit. It has no effect on keywords written without spaces
	// (NoWordBoundaries) nor on regular expressions, which say what they mean
	// themselves.
	WholeWords bool
	// Owner is the caller's id for whoever owns the keyword (an entry index);
	// the matcher only reports it back through Groups.
	Owner int
	// Literal matches Text as written even when it looks like /pattern/flags
	// (an engine that tries a keyword as a regular expression and then as
	// text adds it twice, once literal).
	Literal bool
}

// Hit is one match of a pattern in a text.
type Hit struct {
	Pattern    int // index into the patterns given to Compile
	Start, End int // byte offsets in the original (not normalised) text
}

// PatternError is a pattern that cannot be compiled (a bad regular expression).
type PatternError struct {
	Index int
	Text  string
	Err   error
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("keyword %d %q: %v", e.Index, Shorten(e.Text, 60), e.Err)
}

// Shorten cuts s to at most n characters, "…" marking the cut, for messages
// that quote a keyword which may be thousands of characters long.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}

func (e *PatternError) Unwrap() error { return e.Err }

// Group is one normalised literal keyword and every pattern that normalises to it.
type Group struct {
	Text     string // normalised
	Patterns []int  // ascending
	Owners   []int  // distinct owners of those patterns, ascending
}

// Matcher finds many keywords at once. Build it once with Compile; Find is safe
// for concurrent use.
//
// Literal keywords are normalised and go into one Aho-Corasick automaton, with
// identical normalised keywords sharing one automaton pattern; the automaton runs
// once per text (all overlapping hits, so "bar" and "barrel" both hit in
// "barrel"), and whole-word checks are applied to its hits. Regular-expression
// keywords cannot go into the automaton: each distinct one runs once per text, on
// the NFKC form of the text without case folding (its own i flag decides case).
// A lorebook has few of them; thousands of regular expressions would cost what
// one regular expression per keyword costs.
type Matcher struct {
	patterns []Pattern
	opts     Options
	// ac is built from lits on the first scan (acOnce): a command that
	// compiles a book's keywords but scans no text (tokens without a chat,
	// a book no text reaches) does not pay for it.
	ac     *automaton.Automaton
	acOnce sync.Once
	// raw says ac reads the ASCII letters of both cases as its patterns'
	// case (automaton.FoldASCII), so a text the fold changes in no other
	// way is scanned as it is (scansRaw).
	raw    bool
	lits   [][]byte
	groups []Group // by automaton pattern id
	// checkWords[i] says pattern i wants the whole-word check; groupChecks[g]
	// says some pattern of literal group g does.
	checkWords  []bool
	groupChecks []bool
	groupOf     []int // pattern → group, -1 for none
	regexes     []*regexp.Regexp
	jsRegexes   []*jsRegex // the ECMAScript dialect's, instead of regexes
	pre         *prefilter // which of jsRegexes can match a text
	regexPats   [][]int    // by regex index
	// maxRunes is the length in characters of the longest normalised literal
	// (Scanner.Grow looks that far back); incremental says it need not
	// look further (canGrow).
	maxRunes    int
	incremental bool
}

// Compile builds a Matcher with lore's semantics (CompileWith's zero
// Options). Patterns that cannot be compiled are reported (one PatternError
// each, in pattern order) and never match; the others work.
func Compile(ps []Pattern) (*Matcher, []error) { return CompileWith(ps, Options{}) }

// CompileWith builds a Matcher that compares as o says (see Options).
// Patterns that cannot be compiled are reported (one PatternError each, in
// pattern order) and never match; the others work.
func CompileWith(ps []Pattern, o Options) (*Matcher, []error) {
	m := &Matcher{patterns: append([]Pattern(nil), ps...), opts: o, checkWords: make([]bool, len(ps)), groupOf: make([]int, len(ps))}
	for i := range m.groupOf {
		m.groupOf[i] = -1
	}
	var errs []error
	literal := make(map[string]int, len(ps)) // normalised text → group
	var arena []byte                         // the ASCII keywords' folded bytes
	regexIdx := map[string]int{}
	lits := make([][]byte, 0, len(ps))
	litBytes := 0
	m.groups = make([]Group, 0, len(ps))
	for i, p := range ps {
		if p.Text == "" || !o.Blank && strings.TrimSpace(p.Text) == "" {
			// An empty or blank keyword would fire on every message; it never
			// matches (lint reports it).
			continue
		}
		if len(p.Text) > MaxKeywordLen {
			errs = append(errs, &PatternError{Index: i, Text: p.Text, Err: ErrKeywordTooLong})
			continue
		}
		if !p.Literal && m.isRegex(p.Text) {
			if j, ok := regexIdx[p.Text]; ok {
				m.regexPats[j] = append(m.regexPats[j], i)
				continue
			}
			if err := m.addRegex(p.Text); err != nil {
				errs = append(errs, &PatternError{Index: i, Text: p.Text, Err: err})
				continue
			}
			regexIdx[p.Text] = len(m.regexPats)
			m.regexPats = append(m.regexPats, []int{i})
			continue
		}
		var nb []byte // the matcher's own copy
		lo := len(arena)
		if IsASCII(p.Text) {
			// Most keywords: folded straight into a chunk of keywords, one
			// allocation for thousands (normalize would give the same).
			if cap(arena)-lo < len(p.Text) {
				arena, lo = make([]byte, 0, max(arenaChunk, len(p.Text))), 0
			}
			arena = foldASCII(arena, p.Text, m.opts.Fold)
			nb = arena[lo:len(arena):len(arena)]
		} else {
			// A byte that is no character (a keyword never read from a
			// file: lore refuses invalid UTF-8) stands for U+FFFD, as in
			// the JavaScript strings of the engines lore mirrors; left as a
			// byte, it matched inside characters of a chat (0xbb in 㽻).
			nb = m.normalize(strings.ToValidUTF8(p.Text, "\uFFFD")).text
		}
		if len(nb) == 0 || !o.Blank && len(bytes.TrimSpace(nb)) == 0 {
			continue
		}
		m.maxRunes = max(m.maxRunes, utf8.RuneCount(nb))
		g, ok := literal[string(nb)] // a lookup does not copy nb
		if ok && len(arena) > lo {
			arena = arena[:lo] // a keyword already grouped keeps no copy
		}
		if !ok && litBytes+len(nb) > keywordTotal {
			errs = append(errs, &PatternError{Index: i, Text: p.Text, Err: ErrKeywordsTooLarge})
			continue
		}
		if !ok {
			litBytes += len(nb)
			g = len(m.groups)
			// The group's text shares nb's bytes, which nothing writes:
			// normalize made them for this keyword, and the automaton
			// only reads its patterns.
			n := unsafe.String(unsafe.SliceData(nb), len(nb))
			literal[n] = g
			m.groups = append(m.groups, Group{Text: n})
			lits = append(lits, nb)
		}
		m.checkWords[i] = p.WholeWords && (o.Bounded != nil || !NoWordBoundaries(m.groups[g].Text))
		m.groupOf[i] = g
	}
	m.fillGroups(ps)
	for r, pats := range m.regexPats {
		for _, p := range pats {
			m.groupOf[p] = len(m.groups) + r
		}
	}
	m.incremental = m.canGrow()
	if len(m.jsRegexes) > 0 {
		pats, flags := make([]string, len(m.jsRegexes)), make([]string, len(m.jsRegexes))
		for r, re := range m.jsRegexes {
			pats[r], flags[r] = re.pattern, re.flags
		}
		m.pre = buildPrefilter(pats, flags)
	}
	m.lits = lits
	return m, errs
}

// keywordAutomaton builds the automaton on first use; nil when there are no
// literal keywords.
func (m *Matcher) keywordAutomaton() *automaton.Automaton {
	m.acOnce.Do(func() {
		if len(m.lits) == 0 {
			return
		}
		ac, err := automaton.New(m.lits)
		if err != nil {
			// Only empty or repeated patterns fail, and both are filtered
			// out by CompileWith.
			panic("match: building the automaton: " + err.Error())
		}
		switch m.opts.Fold {
		case FoldNone:
			m.raw = true
		case FoldJSIgnoreCase:
			m.raw = ac.FoldASCII(true)
		default:
			m.raw = ac.FoldASCII(false)
		}
		m.ac, m.lits = ac, nil
	})
	return m.ac
}

// fillGroups lists each literal group's patterns (groupOf holds the group
// of each literal pattern) and owners, and whether some pattern of it wants
// the whole-word check. Every group's lists are parts of two arrays, cut so
// that appending to one copies it.
func (m *Matcher) fillGroups(ps []Pattern) {
	at := make([]int, len(m.groups)+1) // group g's patterns start at at[g]
	for _, g := range m.groupOf {
		if g >= 0 {
			at[g+1]++
		}
	}
	for g := range m.groups {
		at[g+1] += at[g]
	}
	pats := make([]int, at[len(m.groups)])
	owns := make([]int, len(pats))
	next := slices.Clone(at[:len(m.groups)])
	for p, g := range m.groupOf {
		if g >= 0 {
			pats[next[g]], owns[next[g]] = p, ps[p].Owner
			next[g]++
		}
	}
	m.groupChecks = make([]bool, len(m.groups))
	for g := range m.groups {
		lo, hi := at[g], at[g+1]
		m.groups[g].Patterns = pats[lo:hi:hi]
		out := owns[lo:hi]
		if len(out) > 1 { // most keywords have one pattern
			slices.Sort(out)
			out = slices.Compact(out)
		}
		m.groups[g].Owners = out[:len(out):len(out)]
		for _, p := range m.groups[g].Patterns {
			m.groupChecks[g] = m.groupChecks[g] || m.checkWords[p]
		}
	}
}

// Groups lists every distinct normalised literal keyword with the patterns that
// share it, in the order of their first pattern. A group with more than one
// owner is a keyword several owners share (lint's keyword-collision).
func (m *Matcher) Groups() []Group {
	out := make([]Group, len(m.groups))
	copy(out, m.groups)
	return out
}

// LiteralGroups is len(Groups()), without the copy.
func (m *Matcher) LiteralGroups() int { return len(m.groups) }

// GroupText is Groups()[g].Text, without the copy.
func (m *Matcher) GroupText(g int) string { return m.groups[g].Text }

// Occurrence is one place where a group of patterns matched: every pattern
// whose normalised literal is the same (a Group), or every pattern written as
// the same regular expression.
type Occurrence struct {
	// Group numbers literal groups 0..len(Groups())-1 as Groups does, then
	// regular expressions; GroupPatterns lists its patterns.
	Group      int
	Start, End int // byte offsets in the original text
	// Bounded says the match is a whole word (by default: no letter or
	// digit touches it; see Options.Bounded), so that patterns asking for
	// whole words match here too (always true for regular expressions, which
	// ignore WholeWords).
	Bounded bool
}

// GroupPatterns lists the patterns of an occurrence's group, ascending.
func (m *Matcher) GroupPatterns(g int) []int {
	if g < len(m.groups) {
		return m.groups[g].Patterns
	}
	return m.regexPats[g-len(m.groups)]
}

// IsRegexGroup reports an occurrence group that is a regular expression
// rather than a literal.
func (m *Matcher) IsRegexGroup(g int) bool { return g >= len(m.groups) }

// NumGroups is the number of groups Occurrences may report (literal groups
// and distinct regular expressions).
func (m *Matcher) NumGroups() int { return len(m.groups) + len(m.regexPats) }

// PatternGroup is the group pattern i belongs to, or -1 for a pattern that
// never matches (blank, or a regular expression that does not compile).
func (m *Matcher) PatternGroup(i int) int { return m.groupOf[i] }

// WantsBoundaries reports whether pattern i matches only at Bounded
// occurrences: it asked for whole words and is a literal not written in a
// script without spaces.
func (m *Matcher) WantsBoundaries(i int) bool { return m.checkWords[i] }

// Occurrences calls fn for every occurrence of every group in text, in no
// particular order, overlapping ones included (of a JavaScript regular
// expression, its first match). It is the cheap form of Find for
// callers that aggregate: a keyword shared by many patterns costs one call per
// occurrence, not one per pattern.
func (m *Matcher) Occurrences(text string, fn func(Occurrence)) {
	m.Scanner().Grow(text, 0, nil, fn)
}

// OccurrencesWithin is Occurrences with the JavaScript regular expressions
// timed by c, the render's clock.
func (m *Matcher) OccurrencesWithin(text string, c *RegexClock, fn func(Occurrence)) {
	m.ScannerWithin(c).Grow(text, 0, nil, fn)
}

// literals reports the literal occurrences in text that end after byte from,
// scanning from start (a character boundary at or before from). A text the
// fold would change only in its ASCII letters is scanned without a copy.
func (m *Matcher) literals(text string, from int, fn func(Occurrence)) {
	ac := m.keywordAutomaton()
	if ac == nil {
		return
	}
	start := m.scanStart(text, from)
	rest := text[start:]
	var n normalized
	if m.scansRaw(rest) {
		// A read-only view of the text's bytes: the automaton never
		// writes the text it scans.
		n = normalized{text: unsafe.Slice(unsafe.StringData(rest), len(rest)), origLen: len(rest)}
	} else {
		n = m.normalize(rest)
	}
	ac.Each(n.text, func(h automaton.Match) {
		g := h.PatternID
		s, e := n.original(h.Start, h.End)
		s, e = s+start, e+start
		if e <= from {
			return
		}
		bounded := true
		if m.groupChecks[g] {
			if m.opts.Bounded != nil {
				bounded = m.opts.Bounded(text, s, e)
			} else {
				bounded = atWordBoundaries(n.text, h.Start, h.End)
			}
		}
		fn(Occurrence{Group: g, Start: s, End: e, Bounded: bounded})
	})
}

// arenaChunk is the size of a chunk of folded ASCII keywords.
const arenaChunk = 16 << 10

// foldASCII appends the ASCII text s to dst as fold f leaves it: lowered,
// upper-cased (JavaScript's i flag) or as it is. It is normalize, jsLower
// and jsIgnoreCase for ASCII text.
func foldASCII(dst []byte, s string, f Fold) []byte {
	var from byte
	switch f {
	case FoldNone:
		return append(dst, s...)
	case FoldJSIgnoreCase:
		from = 'a'
	default:
		from = 'A'
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if from <= c && c < from+26 {
			c ^= 0x20
		}
		dst = append(dst, c)
	}
	return dst
}

// scansRaw says the automaton can scan s as it is: the fold would change
// nothing in it but ASCII letters, which the automaton reads in either case.
func (m *Matcher) scansRaw(s string) bool {
	switch {
	case !m.raw:
		return false
	case m.opts.Fold == FoldNone:
		return true
	case m.opts.Fold == FoldUnicode:
		ok, cased := unchanged(s, true)
		return ok && !cased
	}
	return IsASCII(s)
}

// regexOccurrences reports every match of every RE2 regular expression in
// text, and the first match of each ECMAScript one that run says to run,
// within the limits of c.
func (m *Matcher) regexOccurrences(text string, c *RegexClock, run func(r int) bool, fn func(Occurrence)) {
	for r, re := range m.jsRegexes {
		if !run(r) {
			continue
		}
		c.run(re, text, func(s, e int) {
			fn(Occurrence{Group: len(m.groups) + r, Start: s, End: e, Bounded: true})
		})
	}
	if len(m.regexes) > 0 {
		n := normalize(text, false)
		str := string(n.text)
		for r, re := range m.regexes {
			for _, loc := range re.FindAllStringIndex(str, -1) {
				if loc[0] == loc[1] {
					continue // an empty match is not a keyword hit
				}
				s, e := n.original(loc[0], loc[1])
				fn(Occurrence{Group: len(m.groups) + r, Start: s, End: e, Bounded: true})
			}
		}
	}
}

// Find returns every hit of every pattern in text, sorted by Start, then
// Pattern, then End. Overlapping hits are all reported. Offsets are byte offsets
// into text itself.
func (m *Matcher) Find(text string) []Hit {
	var hits []Hit
	m.Occurrences(text, func(o Occurrence) {
		for _, p := range m.GroupPatterns(o.Group) {
			if o.Bounded || !m.checkWords[p] {
				hits = append(hits, Hit{Pattern: p, Start: o.Start, End: o.End})
			}
		}
	})
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.Pattern != b.Pattern {
			return a.Pattern < b.Pattern
		}
		return a.End < b.End
	})
	return hits
}
