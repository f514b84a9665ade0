package match

import (
	"unicode/utf8"
)

// Options say how a Matcher compares keywords with text, for engines whose
// rules are not lore's. The zero value is lore's: NFKC and full case folding,
// Unicode word boundaries except in scripts written without spaces, RE2
// regular expressions run on the NFKC text, blank keywords never matching.
type Options struct {
	// Fold is what makes a keyword and a text compare equal.
	Fold Fold
	// Bounded, when set, decides whether a literal occurrence of a pattern
	// with WholeWords counts: it gets the original text and the occurrence's
	// byte range in it, and applies to every script. Nil is lore's rule: no
	// letter or digit of any script touches it, and keywords written in a
	// script without spaces are exempt (NoWordBoundaries).
	Bounded func(text string, start, end int) bool
	// Regex is the dialect of /pattern/flags keywords.
	Regex Dialect
	// Blank makes whitespace-only keywords patterns like any other, matched
	// as written (the empty keyword still never matches: what an engine does
	// with it is the engine's business).
	Blank bool
}

// Fold is a way of comparing text regardless of case.
type Fold int

const (
	// FoldUnicode is lore's: Normalize (NFKC, then full case folding).
	FoldUnicode Fold = iota
	// FoldJSLower is JavaScript's toLowerCase on both sides (JSLower).
	FoldJSLower
	// FoldJSIgnoreCase is a JavaScript regular expression's i flag without
	// u: each UTF-16 code unit compared by its canonical upper case.
	FoldJSIgnoreCase
	// FoldNone compares exactly, case-sensitively.
	FoldNone
)

// Dialect is a regular-expression language for /pattern/flags keywords.
type Dialect int

const (
	// RE2 is lore's: Go's regexp on the NFKC text, flags i, m and s
	// (IsRegex, CompileRegex); empty matches are not hits.
	RE2 Dialect = iota
	// ECMAScript is JavaScript's RegExp (regexp2's ECMAScript mode) on the
	// text as it is, flags g i m s u y (IsJSRegex); as RegExp.test, an empty
	// match is a hit. regexp2 works on characters where JavaScript works on
	// UTF-16 code units, so "." takes a whole emoji. An expression runs only
	// on texts that hold the literal text it requires, if any (prefilter).
	// It backtracks, so each match is bounded by RegexMatchTime and a
	// render's matches by RegexRenderTime (RegexClock); an occurrence is
	// its first match in a text, which is all RegExp.test asks.
	ECMAScript
)

// normalize puts a text (or a literal pattern) in the form the automaton
// compares.
func (m *Matcher) normalize(s string) normalized {
	switch m.opts.Fold {
	case FoldJSLower:
		return jsLower(s)
	case FoldJSIgnoreCase:
		return jsIgnoreCase(s)
	case FoldNone:
		return normalized{text: []byte(s), origLen: len(s)}
	}
	return normalize(s, true)
}

func (m *Matcher) isRegex(kw string) bool {
	if m.opts.Regex == ECMAScript {
		return IsJSRegex(kw)
	}
	return IsRegex(kw)
}

// addRegex compiles one distinct regular expression of the matcher's dialect.
func (m *Matcher) addRegex(kw string) error {
	if m.opts.Regex == ECMAScript {
		re, err := compileJSRegex(kw)
		if err != nil {
			return err
		}
		m.jsRegexes = append(m.jsRegexes, re)
		return nil
	}
	re, err := CompileRegex(kw)
	if err != nil {
		return err
	}
	m.regexes = append(m.regexes, re)
	return nil
}

// scanStart is where a scan for occurrences ending after from must begin: far
// enough back for the longest literal, and, with JSLower, back to a character
// that is neither cased nor case-ignorable, so a final sigma is lowered with
// the same context it has in the whole text.
func (m *Matcher) scanStart(text string, from int) int {
	if from == 0 {
		return 0
	}
	if !m.incremental {
		return 0
	}
	// Each of these folds maps a character to at least one character, so an
	// occurrence of n normalised characters covers at most n original ones.
	start := backRunes(text, from, m.maxRunes)
	if m.opts.Fold == FoldJSLower {
		for start > 0 {
			r, size := utf8.DecodeLastRuneInString(text[:start])
			if !cased(r) && !caseIgnorable(r) {
				break
			}
			start -= size
		}
	}
	return start
}

// backRunes is the offset n characters before from (or 0).
func backRunes(text string, from, n int) int {
	for k := 0; k < n && from > 0; k++ {
		_, size := utf8.DecodeLastRuneInString(text[:from])
		from -= size
	}
	return from
}

// canGrow says whether Scanner.Grow can scan only the new text: not with
// lore's folding, nor with lore's word boundaries on some pattern.
func (m *Matcher) canGrow() bool {
	if m.opts.Fold == FoldUnicode {
		return false
	}
	if m.opts.Bounded == nil {
		for _, c := range m.groupChecks {
			if c {
				return false
			}
		}
	}
	return true
}
