package lsp

import (
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Positions. lore's diagnostics count lines from 1 and columns from 1 in
// runes (characters) of the source line; LSP counts both from 0, columns in
// UTF-16 code units (the position encoding every client supports). A CJK
// character is one rune and one unit, an emoji outside the Basic Multilingual
// Plane one rune and two units (a surrogate pair), a combining mark its own
// rune and unit. utf16Col and runeCol are the one place these meet.

// utf16Col is the UTF-16 offset, in line, of the rune column col (1-based, as
// lore counts). A column past the line's end is the line's end.
func utf16Col(line string, col int) uint32 {
	n := uint32(0)
	for _, r := range line {
		if col <= 1 {
			break
		}
		col--
		n += uint32(utf16Len(r))
	}
	return n
}

// runeCol is the rune column (1-based) of the UTF-16 offset u in line; an
// offset inside a surrogate pair is the rune's column, one past the line's
// end is the column after its last rune.
func runeCol(line string, u uint32) int {
	col := 1
	for _, r := range line {
		w := uint32(utf16Len(r))
		if u < w {
			break
		}
		u -= w
		col++
	}
	return col
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// text is one file's text, split into lines for converting positions.
type text struct {
	s      string
	starts []int // byte offset of each line's start

	mu    sync.Mutex
	marks map[int]*lineMarks // long lines' marks, made when first needed
}

// markEvery is how many runes lie between two marks of a long line, and
// longLine how long (in bytes) a line is before it gets marks: a minified
// JSON file is one line of megabytes holding every finding, and walking it
// from its start for each of them would cost the file's length per finding.
const (
	markEvery = 256
	longLine  = 4 * markEvery
)

// lineMarks are, for every markEvery-th rune of a line, its byte offset and
// its UTF-16 offset.
type lineMarks struct {
	bytes, units []int
}

// marksOf are the marks of line l (its text line); nil for a short line,
// which is walked from its start.
func (t *text) marksOf(l int, line string) *lineMarks {
	if len(line) < longLine {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if m := t.marks[l]; m != nil {
		return m
	}
	m := &lineMarks{}
	runes, units := 0, 0
	for i, r := range line {
		if runes%markEvery == 0 {
			m.bytes, m.units = append(m.bytes, i), append(m.units, units)
		}
		runes++
		units += utf16Len(r)
	}
	if t.marks == nil {
		t.marks = map[int]*lineMarks{}
	}
	t.marks[l] = m
	return m
}

// fromRune is the mark at or before the rune column col (1-based) of line l:
// the rest of the line from there and the column col has in that rest, with
// the UTF-16 offset of the mark.
func (t *text) fromRune(l int, line string, col int) (rest string, restCol int, units uint32) {
	m := t.marksOf(l, line)
	if m == nil || col <= 1 {
		return line, col, 0
	}
	k := min((col-1)/markEvery, len(m.bytes)-1)
	return line[m.bytes[k]:], col - k*markEvery, uint32(m.units[k])
}

// fromUnit is the mark at or before the UTF-16 offset u of line l: the rest
// of the line from there, the offset u has in that rest, and the rune
// column of the mark less one.
func (t *text) fromUnit(l int, line string, u uint32) (rest string, restU uint32, runes int) {
	m := t.marksOf(l, line)
	if m == nil {
		return line, u, 0
	}
	k := max(sort.Search(len(m.units), func(i int) bool { return m.units[i] > int(u) })-1, 0)
	return line[m.bytes[k]:], u - uint32(m.units[k]), k * markEvery
}

// u16 is the UTF-16 offset of the rune column col of line l (utf16Col).
func (t *text) u16(l int, line string, col int) uint32 {
	rest, c, base := t.fromRune(l, line, col)
	return base + utf16Col(rest, c)
}

// col is the rune column of the UTF-16 offset u of line l (runeCol).
func (t *text) col(l int, line string, u uint32) int {
	rest, r, base := t.fromUnit(l, line, u)
	return base + runeCol(rest, r)
}

// byteOf is the byte offset in line l of its rune column col; the line's
// length past its end.
func (t *text) byteOf(l int, line string, col int) int {
	rest, c, _ := t.fromRune(l, line, col)
	off := len(line) - len(rest)
	for i := range rest {
		if c <= 1 {
			return off + i
		}
		c--
	}
	return len(line)
}

func newText(b []byte) *text {
	s := string(b)
	t := &text{s: s, starts: []int{0}}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			t.starts = append(t.starts, i+1)
		}
	}
	return t
}

// line is the text of line l (0-based), without its line end; "" past the end.
func (t *text) line(l int) string {
	if l < 0 || l >= len(t.starts) {
		return ""
	}
	end := len(t.s)
	if l+1 < len(t.starts) {
		end = t.starts[l+1] - 1
	}
	return strings.TrimSuffix(t.s[t.starts[l]:end], "\r")
}

// toLSP turns lore's line and rune column (1-based; 0 for none) into an
// LSP position.
func (t *text) toLSP(line, col int) protocol.Position {
	if line <= 0 {
		return protocol.Position{}
	}
	return protocol.Position{Line: uint32(line - 1), Character: t.u16(line-1, t.line(line-1), col)}
}

// fromLSP turns an LSP position into lore's line and rune column.
func (t *text) fromLSP(p protocol.Position) (line, col int) {
	return int(p.Line) + 1, t.col(int(p.Line), t.line(int(p.Line)), p.Character)
}

// offset is the byte offset of an LSP position (clamped to the text).
func (t *text) offset(p protocol.Position) int {
	l := int(p.Line)
	if l >= len(t.starts) {
		return len(t.s)
	}
	// The line with a CR it may end with: posOf counts that CR too, so
	// the two agree on every offset.
	end := len(t.s)
	if l+1 < len(t.starts) {
		end = t.starts[l+1] - 1
	}
	line := t.s[t.starts[l]:end]
	return t.starts[l] + t.byteOf(l, line, t.col(l, line, p.Character))
}

// end is the position just after the text.
func (t *text) end() protocol.Position {
	l := len(t.starts) - 1
	line := t.line(l)
	return protocol.Position{Line: uint32(l), Character: utf16Col(line, utf8.RuneCountInString(line)+1)}
}

// span is how many runes, from the rune column col of line, the value found
// there covers: a quoted string with its quotes; else, when the message of
// its finding quotes a word that the line holds there (a keyword in an entry's
// content), that word; else a run of word characters; at least one rune.
func span(line string, col int, quoted []string) int {
	if col < 1 {
		return 0
	}
	return spanFrom(line[byteOfCol(line, col):], quoted)
}

// span is span(t.line(l), col, quoted), from the line's nearest mark.
func (t *text) span(l, col int, quoted []string) int {
	if col < 1 {
		return 0
	}
	line := t.line(l)
	return spanFrom(line[t.byteOf(l, line, col):], quoted)
}

func byteOfCol(line string, col int) int {
	for i := range line {
		if col <= 1 {
			return i
		}
		col--
	}
	return len(line)
}

// spanFrom is span on the line's text from the value's first rune.
func spanFrom(rest string, quoted []string) int {
	if rest == "" {
		return 0
	}
	q, w := utf8.DecodeRuneInString(rest)
	if q == '"' || q == '\'' {
		// idx is the rune index of the rune at byte j.
		for j, idx := w, 1; j < len(rest); {
			r, w := utf8.DecodeRuneInString(rest[j:])
			switch {
			case q == '"' && r == '\\': // an escape: it and the rune after
				j, idx = j+w, idx+1
				if j < len(rest) {
					_, w2 := utf8.DecodeRuneInString(rest[j:])
					j, idx = j+w2, idx+1
				}
				continue
			case r == q && q == '\'' && strings.HasPrefix(rest[j+w:], "'"): // '' inside '…'
				j, idx = j+w+1, idx+2
				continue
			case r == q:
				return idx + 1
			}
			j, idx = j+w, idx+1
		}
		return utf8.RuneCountInString(rest)
	}
	for _, w := range quoted {
		if w != "" && len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) {
			return utf8.RuneCountInString(w)
		}
	}
	n := 0
	for _, r := range rest {
		if !wordish(r) {
			break
		}
		n++
	}
	return max(n, 1)
}

// wordish is a character of a plain value: a field name, an id, a word.
func wordish(r rune) bool {
	switch {
	case r == '-' || r == '_' || r == '.':
		return true
	case r < 0x80:
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return !strings.ContainsRune("、。，．！？「」『』（）　：；…", r)
}

// posOf is the LSP position of a byte offset.
func (t *text) posOf(off int) protocol.Position {
	off = min(max(off, 0), len(t.s))
	l := sort.Search(len(t.starts), func(i int) bool { return t.starts[i] > off }) - 1
	n := uint32(0)
	for _, r := range t.s[t.starts[l]:off] {
		n += uint32(utf16Len(r))
	}
	return protocol.Position{Line: uint32(l), Character: n}
}

// edit is the one TextEdit that turns t's text into out: the part between
// their common prefix and suffix (cut on character boundaries), so an
// editor keeps its cursor and undo history for the rest.
func (t *text) edit(out string) (protocol.TextEdit, bool) {
	a := t.s
	if a == out {
		return protocol.TextEdit{}, false
	}
	p := 0
	for p < len(a) && p < len(out) && a[p] == out[p] {
		p++
	}
	for p > 0 && p < len(a) && !utf8.RuneStart(a[p]) {
		p--
	}
	s := 0
	for s < len(a)-p && s < len(out)-p && a[len(a)-1-s] == out[len(out)-1-s] {
		s++
	}
	for s > 0 && !utf8.RuneStart(a[len(a)-s]) {
		s--
	}
	return protocol.TextEdit{Range: protocol.Range{Start: t.posOf(p), End: t.posOf(len(a) - s)}, NewText: out[p : len(out)-s]}, true
}
