package sillytavern

import (
	"unicode"
	"unicode/utf8"

	"github.com/lorekit/lore/tokenize"
)

// countText counts a text SillyTavern joins from entry contents and line
// breaks, as the sum of its parts: it is cut after each line break that a
// character other than white space or "/" follows, where the byte-pair
// tokenizers lore embeds (o200k_base, cl100k_base) always end a pre-token,
// so the sum is the count of the whole. The parts — entry contents, mostly
// — recur from pass to pass and render to render, and the counter keeps
// their counts, so the growing texts of a scan are not counted again and
// again. chars4 counts bytes and needs no cut.
func countText(c tokenize.Counter, s string) int {
	if c.Name() == tokenize.Chars4 {
		return (len(s) + 3) / 4
	}
	total := 0
	eachPart(s, func(part string) { total += c.Count(part) })
	return total
}

// eachPart calls fn with each part of s that countText counts on its own.
func eachPart(s string, fn func(part string)) {
	start := 0
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\n' && cutBefore(s[i+1:]) {
			fn(s[start : i+1])
			start = i + 1
		}
	}
	fn(s[start:])
}

// cutBefore says whether a pre-token can start at s and not reach back over
// the line break before it.
func cutBefore(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r != '/' && r != utf8.RuneError && !unicode.IsSpace(r)
}
