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
// escapes, -1 for none.
func firstControl(s string, keepNewlines bool) int {
	for i := 0; i < len(s); i++ {
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
