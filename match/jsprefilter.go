package match

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/lorekit/lore/match/internal/automaton"
)

// JavaScript regular expressions run on a backtracking engine, one at a time,
// so a lorebook with thousands of them would cost one regular expression per
// keyword per text. Most keyword expressions require some literal text
// (/knights?\b/ cannot match without "knight"): one automaton over those
// literals, run with the others, tells which expressions can match at all,
// and only those run.

// prefilter is the automaton over the ECMAScript expressions' required
// literals, compared as the i flag compares (a superset of what a
// case-sensitive expression matches).
type prefilter struct {
	ac       *automaton.Automaton
	regexes  [][]int // by literal: the expressions that require it
	always   []bool  // by expression: no literal to wait for
	maxRunes int
}

// buildPrefilter finds each expression's required literal; pats[r] and
// flags[r] are expression r's pattern and flags.
func buildPrefilter(pats, flags []string) *prefilter {
	p := &prefilter{always: make([]bool, len(pats))}
	index := map[string]int{}
	var lits [][]byte
	for r, pat := range pats {
		lit := ""
		if !strings.ContainsRune(flags[r], 'u') { // u folds case otherwise (ſ = s)
			lit = requiredLiteral(pat)
		}
		if lit == "" {
			p.always[r] = true
			continue
		}
		folded := string(jsIgnoreCase(lit).text)
		k, ok := index[folded]
		if !ok {
			k = len(lits)
			index[folded] = k
			lits = append(lits, []byte(folded))
			p.regexes = append(p.regexes, nil)
			p.maxRunes = max(p.maxRunes, utf8.RuneCountInString(folded))
		}
		p.regexes[k] = append(p.regexes[k], r)
	}
	if len(lits) > 0 {
		ac, err := automaton.New(lits)
		if err != nil {
			panic("match: building the prefilter: " + err.Error()) // only empty or repeated patterns fail
		}
		p.ac = ac
	}
	return p
}

// requiredLiteral is the longest literal text every match of a JavaScript
// pattern contains, "" when it cannot tell. It reads the pattern with Go's
// parser, which accepts the common subset of both languages; a pattern it
// rejects (lookaround, backreferences, \u escapes) or one with a backslash
// and a digit (octal in JavaScript) has no prefilter.
func requiredLiteral(pattern string) string {
	for i := 0; i+1 < len(pattern); i++ {
		if pattern[i] == '\\' {
			if c := pattern[i+1]; '0' <= c && c <= '9' {
				return ""
			}
			i++
		}
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return ""
	}
	return longestRequired(re.Simplify())
}

// longestRequired is the longest literal among the parts every match goes
// through: the expression itself, the items of a concatenation, what a
// group or a one-or-more repetition holds.
func longestRequired(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune)
	case syntax.OpCapture, syntax.OpPlus:
		return longestRequired(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return longestRequired(re.Sub[0])
		}
	case syntax.OpConcat:
		best := ""
		for _, sub := range re.Sub {
			if l := longestRequired(sub); utf8.RuneCountInString(l) > utf8.RuneCountInString(best) {
				best = l
			}
		}
		return best
	}
	return ""
}

// mark records in seen the expressions whose literal occurs in text[start:]
// and ends after from.
func (p *prefilter) mark(text string, start, from int, seen []bool) {
	if p.ac == nil {
		return
	}
	n := jsIgnoreCase(text[start:])
	p.ac.Each(n.text, func(h automaton.Match) {
		if _, e := n.original(h.Start, h.End); e+start <= from {
			return
		}
		for _, r := range p.regexes[h.PatternID] {
			seen[r] = true
		}
	})
}

// A Scanner follows one text as it grows — an engine that appends what
// recursion brings in and scans the whole text again — so that each part is
// scanned once. It remembers which regular expressions' required literals
// it has seen; it is not safe for concurrent use.
type Scanner struct {
	m     *Matcher
	seen  []bool
	clock *RegexClock
}

// Scanner starts following a text (see Scanner.Grow).
func (m *Matcher) Scanner() *Scanner { return m.ScannerWithin(nil) }

// ScannerWithin is Scanner with the JavaScript regular expressions timed by
// c, the render's clock (nil: each match within RegexMatchTime, no total).
func (m *Matcher) ScannerWithin(c *RegexClock) *Scanner {
	s := &Scanner{m: m, clock: c}
	if m.pre != nil {
		s.seen = append([]bool(nil), m.pre.always...)
	}
	return s
}

// Grow reports the occurrences of text, which is the text of the previous
// call (empty before the first) with more appended at from, starting with a
// space (as when an engine joins texts with spaces): the literal occurrences
// that end after from — those that begin before from and run into the new
// text included — and, since what a regular expression matches can depend
// on anything before it, every occurrence in the whole text of the regular
// expressions that can match and that want (nil: all) asks for by group
// (of a JavaScript one, its first match, within the Scanner's RegexClock).
//
// With the JavaScript folds and FoldNone, and a Bounded predicate for whole
// words, only the new text and the few characters before it that a keyword
// can span are normalised, so growing a text n times costs about what
// scanning it once does. With lore's folding (NFKC composes characters
// across the join) or lore's word boundaries (decided on the normalised
// text), the whole text is scanned and what ends before from skipped.
func (s *Scanner) Grow(text string, from int, want func(group int) bool, fn func(Occurrence)) {
	m := s.m
	from = min(max(from, 0), len(text))
	m.literals(text, from, fn)
	if m.pre != nil {
		m.pre.mark(text, backRunes(text, from, m.pre.maxRunes), from, s.seen)
	}
	m.regexOccurrences(text, s.clock, func(r int) bool {
		return (s.seen == nil || s.seen[r]) && (want == nil || want(len(m.groups)+r))
	}, fn)
}
