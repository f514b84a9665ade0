package reply

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// fold is how a reply's text and a template's literal text are compared:
// whitespace does not count, and full-width and half-width forms are one
// (：and :, （ and (, ２ and 2; ｱ and ア).
func fold(r rune) (rune, bool) {
	if r < utf8.RuneSelf {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' {
			return 0, false
		}
		return r, true
	}
	if unicode.IsSpace(r) {
		return 0, false
	}
	if p := width.LookupRune(r); p.Kind() == width.EastAsianFullwidth || p.Kind() == width.EastAsianHalfwidth {
		if f := p.Folded(); f != 0 {
			return f, true
		}
	}
	return r, true
}

// norm is s folded, for comparing.
func norm(s string) string {
	var b strings.Builder
	for _, r := range s {
		if f, ok := fold(r); ok {
			b.WriteRune(f)
		}
	}
	return b.String()
}

// normLine is a reply line folded, with where each folded byte came from.
type normLine struct {
	text string // the line as written (without its line break)
	n    string // folded
	// from[k] is the offset in text of the rune that folded byte k belongs
	// to, to[k] the offset just after it; from[len(n)] = to[len(n)] = the
	// end of the last rune kept.
	from, to []int32
}

// fold fills l from text, reusing its slices.
func (l *normLine) fold(text string, buf *strings.Builder) {
	l.text = text
	buf.Reset()
	if cap(l.from) < len(text)+1 {
		l.from, l.to = make([]int32, 0, len(text)+1), make([]int32, 0, len(text)+1)
	}
	l.from, l.to = l.from[:0], l.to[:0]
	end := 0
	for i, r := range text {
		f, ok := fold(r)
		if !ok {
			continue
		}
		size := utf8.RuneLen(r)
		if r == utf8.RuneError {
			size = 1
		}
		n := buf.Len()
		buf.WriteRune(f)
		for k := n; k < buf.Len(); k++ {
			l.from = append(l.from, int32(i))
			l.to = append(l.to, int32(i+size))
		}
		end = i + size
	}
	l.from = append(l.from, int32(end))
	l.to = append(l.to, int32(end))
	l.n = buf.String()
}

// span is the text between folded offsets a (after a literal) and b (where
// the next one starts), trimmed, as byte offsets of the line.
func (l *normLine) span(a, b int) (int, int) {
	var from, to int
	if a == 0 {
		from = 0
	} else {
		from = int(l.to[a-1])
	}
	if b >= len(l.n) {
		to = len(l.text)
	} else {
		to = int(l.from[b])
	}
	if to < from {
		to = from
	}
	s := l.text[from:to]
	rest := strings.TrimLeftFunc(s, unicode.IsSpace)
	from += len(s) - len(rest)
	return from, from + len(strings.TrimRightFunc(rest, unicode.IsSpace))
}
