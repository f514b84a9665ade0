package match

import (
	"unicode"
	"unicode/utf8"
)

// noSpaceScripts are the scripts written without spaces between words: a keyword
// in them cannot have word boundaries, so whole-word matching does not apply.
// Korean (Hangul) is written with spaces and is not here.
var noSpaceScripts = []*unicode.RangeTable{
	unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Bopomofo, unicode.Yi,
	unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan,
	unicode.Tai_Le, unicode.New_Tai_Lue, unicode.Tai_Tham, unicode.Tai_Viet,
	unicode.Javanese, unicode.Balinese,
}

// IsNoSpaceRune reports a character of a script written without spaces. The
// prolonged sound mark ー and the iteration marks belong to script Common but are
// only ever written inside Japanese words.
func IsNoSpaceRune(r rune) bool {
	if r < 0x0E00 { // below Thai: no such script (fast path for Latin, Cyrillic, Greek…)
		return false
	}
	switch r {
	case 0x30FC, 0xFF70, 0x3005, 0x3006, 0x3007, 0x303B, 0x309D, 0x309E, 0x30FD, 0x30FE:
		return true
	}
	return unicode.IsOneOf(noSpaceScripts, r)
}

// NoWordBoundaries reports a keyword written in a script without spaces (Chinese,
// Japanese, Thai, Lao, Khmer, Myanmar, Tibetan…): it matches as a substring even
// with matchWholeWords.
//
// A mixed keyword (東京tower, 3号, iPhone用) counts as written without spaces as
// soon as it contains one such character: it belongs to text of that language,
// where the characters around it are letters that do not continue the word, so a
// boundary check at either end would only make it miss.
func NoWordBoundaries(kw string) bool {
	for _, r := range kw {
		if IsNoSpaceRune(r) {
			return true
		}
	}
	// Half-width katakana (ｻｸﾗ) are in the Katakana script already; nothing to
	// normalise first.
	return false
}

// IsWordRune is what blocks a whole-word match when it touches the match: a
// letter or digit of any script (and a combining mark, which belongs to the letter
// before it).
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// atWordBoundaries reports whether text[s:e] is not preceded or followed by a word
// character.
func atWordBoundaries(text []byte, s, e int) bool {
	if s > 0 {
		if r, _ := utf8.DecodeLastRune(text[:s]); r != utf8.RuneError && IsWordRune(r) {
			return false
		}
	}
	if e < len(text) {
		if r, _ := utf8.DecodeRune(text[e:]); r != utf8.RuneError && IsWordRune(r) {
			return false
		}
	}
	return true
}
