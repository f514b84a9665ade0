package diag

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A lorebook, a chat or a test file is untrusted text: an entry name with
// ESC ] 52 writes the clipboard of whoever lints it, ESC [ 2 J clears their
// screen, and a newline in a value starts a line of its own, a forged
// finding or TAP result. Every printer of a text format passes what came
// from a file through Printable (one line) or PrintableText (a block).

// Printable returns s for one line of text output: every C0 control
// character but tab, DEL and every C1 control character escaped, Go style
// (\n, \r, \x1b, \u009b). s itself comes back when it has none, so the
// common case costs a scan.
func Printable(s string) string { return escapeControls(s, false) }

// PrintableText is Printable for a block of text shown as lines (a prompt, an
// explanation): newlines stay.
func PrintableText(s string) string { return escapeControls(s, true) }

func escapeControls(s string, keepNewlines bool) string {
	i := firstControl(s, keepNewlines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch {
		case r == '\n' && keepNewlines, r == '\t', !isControl(r):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// firstControl is the byte offset of the first character Printable
// escapes, -1 for none. Eight bytes at a time are passed over when none of
// them can start one (a byte below 0x20, DEL, or 0xc2, the first byte of
// U+0080–U+00BF): the messages and names it reads are mostly such runs.
func firstControl(s string, keepNewlines bool) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !mayControl(load64(s[i : i+8])) {
			continue
		}
		if j := firstControlByte(s, i, i+8, keepNewlines); j >= 0 {
			return j
		}
	}
	return firstControlByte(s, i, len(s), keepNewlines)
}

// firstControlByte is firstControl byte by byte, for a character that
// starts in s[from:to] (its second byte may be past to).
func firstControlByte(s string, from, to int, keepNewlines bool) int {
	for i := from; i < to; i++ {
		c := s[i]
		switch {
		case c == '\t', c == '\n' && keepNewlines:
		case c < 0x20, c == 0x7f:
			return i
		case c == 0xc2 && i+1 < len(s) && 0x80 <= s[i+1] && s[i+1] <= 0x9f: // U+0080–U+009F
			return i
		}
	}
	return -1
}

// SWAR constants: a one and a high bit in each of eight bytes.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// mayControl says some byte of x is below 0x20, DEL or 0xc2. For each test,
// (v - ones) &^ v keeps a byte's high bit exactly when the byte is zero,
// for the lowest such byte and so for "any" (a borrow only runs above it);
// (x - 0x20 ones) &^ x likewise when it is below 0x20.
func mayControl(x uint64) bool {
	del, c2 := x^0x7f*ones, x^0xc2*ones
	return ((x-0x20*ones)&^x|(del-ones)&^del|(c2-ones)&^c2)&highs != 0
}

// load64 is s's first eight bytes, little-endian (one load once compiled).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func isControl(r rune) bool { return r < 0x20 || 0x7f <= r && r <= 0x9f }

// blankControls replaces each control character of a source line but tab
// with U+FFFD, one character for one, so the caret under it stays in place.
func blankControls(line string) string {
	if firstControl(line, false) < 0 {
		return line
	}
	var b strings.Builder
	for _, r := range line {
		if r != '\t' && isControl(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}
