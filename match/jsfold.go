package match

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// JavaScript's two notions of "the same letter in another case", for engines
// written in JavaScript: String.prototype.toLowerCase (what `text.toLowerCase()
// .includes(keyword.toLowerCase())` compares) and the canonicalisation of a
// regular expression with the i flag and without u (what /\bkeyword\b/i
// compares). They differ from lore's NFKC + case folding: no compatibility
// normalisation (ＴＡＶＥＲＮ stays full-width), ß is not ss, and the Greek final
// sigma is a letter of its own.
//
// Both map every character to at least one character, so a hit of n
// normalised characters covers at most n characters of the original text; the
// incremental scan (Scanner.Grow) relies on that.

// JSLower is JavaScript's String.prototype.toLowerCase: Unicode's default
// lower-case mapping, which is the simple mapping except that İ becomes i
// followed by a combining dot above, and Σ becomes ς at the end of a word
// (Final_Sigma). Case tables are Go's (Unicode 15): letters added since then
// are left as they are.
func JSLower(s string) string { return string(jsLower(s).text) }

// jsLower lowers s as JavaScript does, keeping the offset mapping.
func jsLower(s string) normalized {
	if IsASCII(s) {
		return normalized{text: foldASCII(make([]byte, 0, len(s)), s, FoldJSLower), origLen: len(s)}
	}
	return mapRunes(s, func(r rune, i int, buf []byte) []byte {
		switch {
		case r == 'İ':
			return append(buf, "i\u0307"...)
		case r == 'Σ':
			if finalSigma(s, i) {
				return utf8.AppendRune(buf, 'ς')
			}
			return utf8.AppendRune(buf, 'σ')
		}
		return utf8.AppendRune(buf, unicode.ToLower(r))
	})
}

// mapRunes builds a normalized text by mapping each character of s on its
// own (f gets the character, its byte offset and a buffer to append to);
// bytes that are not UTF-8 are kept as they are.
func mapRunes(s string, f func(r rune, i int, buf []byte) []byte) normalized {
	out := make([]byte, 0, len(s)+len(s)/8)
	start := make([]int32, 0, cap(out))
	end := make([]int32, 0, cap(out))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n := len(out)
		if r == utf8.RuneError && size <= 1 {
			out = append(out, s[i])
			size = 1
		} else {
			out = f(r, i, out)
		}
		for range len(out) - n {
			start = append(start, int32(i))
			end = append(end, int32(i+size))
		}
		i += size
	}
	return normalized{text: out, start: start, end: end, origLen: len(s)}
}

// finalSigma is Unicode's Final_Sigma condition for the Σ at byte i of s: a
// cased letter comes before it and none after it, case-ignorable characters
// (marks, apostrophes, periods…) skipped on both sides.
func finalSigma(s string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
		if caseIgnorable(r) {
			continue
		}
		before = cased(r)
		break
	}
	if !before {
		return false
	}
	for j := i + len("Σ"); j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		j += size
		if caseIgnorable(r) {
			continue
		}
		return !cased(r)
	}
	return true
}

// cased is Unicode's Cased property: Lowercase, Uppercase or Lt.
func cased(r rune) bool {
	return unicode.IsLower(r) || unicode.IsUpper(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is Unicode's Case_Ignorable property: marks, format
// characters, modifier letters and symbols, and the word-internal
// punctuation of Word_Break MidLetter, MidNumLet and Single_Quote.
func caseIgnorable(r rune) bool {
	switch r {
	case '\u0027', '\u002E', '\u003A', '\u00B7', '\u0387', '\u055F', '\u05F4', '\u2018', '\u2019',
		'\u2024', '\u2027', '\uFE13', '\uFE52', '\uFE55', '\uFF07', '\uFF0E', '\uFF1A':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// jsIgnoreCase maps each character to its canonical form under a JavaScript
// regular expression's i flag without u: the upper case of the UTF-16 code
// unit when that is one code unit and does not turn a non-ASCII character
// into an ASCII one; characters outside the Basic Multilingual Plane are two
// code units that never change.
func jsIgnoreCase(s string) normalized {
	if IsASCII(s) {
		return normalized{text: foldASCII(make([]byte, 0, len(s)), s, FoldJSIgnoreCase), origLen: len(s)}
	}
	return mapRunes(s, func(r rune, _ int, buf []byte) []byte { return utf8.AppendRune(buf, jsCanon(r)) })
}

var (
	canonOnce sync.Once
	canon     []uint16
)

// canonTable is the canonical form of every BMP code unit, built on first
// use from the full upper-case mapping (so that ß, whose upper case is SS,
// stays ß).
func canonTable() []uint16 {
	canonOnce.Do(func() {
		canon = make([]uint16, 0x10000)
		upper := cases.Upper(language.Und)
		var buf [4]byte
		for c := range canon {
			canon[c] = uint16(c)
			if c < 0x80 {
				if 'a' <= c && c <= 'z' {
					canon[c] = uint16(c - ('a' - 'A'))
				}
				continue
			}
			if 0xD800 <= c && c <= 0xDFFF {
				continue
			}
			n := utf8.EncodeRune(buf[:], rune(c))
			u := upper.Bytes(buf[:n])
			r, size := utf8.DecodeRune(u)
			if size != len(u) || r > 0xFFFF || r < 0x80 {
				continue
			}
			canon[c] = uint16(r)
		}
	})
	return canon
}

// JSCutPrefixFold reports whether s starts with prefix as a JavaScript
// regular expression with the i flag (and without u) compares them, and
// returns the rest of s.
func JSCutPrefixFold(s, prefix string) (string, bool) {
	for _, p := range prefix {
		r, size := utf8.DecodeRuneInString(s)
		if size == 0 || jsCanon(r) != jsCanon(p) {
			return "", false
		}
		s = s[size:]
	}
	return s, true
}

// jsCanon is the canonical form of one character under the i flag.
func jsCanon(r rune) rune {
	switch {
	case r < 0x80:
		if 'a' <= r && r <= 'z' {
			return r - ('a' - 'A')
		}
		return r
	case r > 0xFFFF:
		return r
	}
	return rune(canonTable()[r])
}

// JSWordBoundaries reports whether text[s:e] is a whole word as JavaScript's
// /\b…\b/ sees it: at each end, exactly one of the two characters around the
// edge is an ASCII word character (a-z, A-Z, 0-9, _), the text's ends
// counting as non-word. Any non-ASCII character is a non-word character, so
// a keyword that ends in é or 龙 needs a word character right after it.
func JSWordBoundaries(text string, s, e int) bool {
	return jsBoundaryAt(text, s) && jsBoundaryAt(text, e)
}

func jsBoundaryAt(text string, i int) bool {
	before := i > 0 && asciiWord(text[i-1])
	after := i < len(text) && asciiWord(text[i])
	return before != after
}

func asciiWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// JSWordRune reports a character JavaScript's \w matches (without the u
// flag): an ASCII letter, digit or underscore.
func JSWordRune(r rune) bool { return r < 0x80 && asciiWord(byte(r)) }
