package diag

import (
	"regexp"
	"strings"
	"testing"
)

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestPrintable(t *testing.T) {
	tests := []struct{ in, line, block string }{
		{"plain café 龙\ttab", "plain café 龙\ttab", "plain café 龙\ttab"},
		{"a\nb", `a\nb`, "a\nb"},
		{"x\r\nok 1 - forged", `x\r\nok 1 - forged`, "x\\r\nok 1 - forged"},
		{"\x1b]52;c;aGk=\a", `\x1b]52;c;aGk=\x07`, `\x1b]52;c;aGk=\x07`},
		{"\x1b[2J\x00\x7f", `\x1b[2J\x00\x7f`, `\x1b[2J\x00\x7f`},
		{"csi\u009b2J nel\u0085", `csi\u009b2J nel\u0085`, `csi\u009b2J nel\u0085`},
		{"\u00a0kept", "\u00a0kept", "\u00a0kept"},
	}
	for _, tt := range tests {
		if got := Printable(tt.in); got != tt.line {
			t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.line)
		}
		if got := PrintableText(tt.in); got != tt.block {
			t.Errorf("PrintableText(%q) = %q, want %q", tt.in, got, tt.block)
		}
	}
	if got := blankControls("a\x1b[31mb\tc"); got != "a\uFFFD[31mb\tc" {
		t.Errorf("blankControls: %q", got)
	}
}

// No value of a diagnostic reaches a terminal or a CI log raw: not the
// file, not the message (a newline there would forge a finding), not the
// source line under it.
func TestPrintersEscapeControls(t *testing.T) {
	d := New(Pos{File: "evil\x1b]0;t\a.yaml", Line: 1, Col: 3}, Warning, "undefined-variable",
		"{{getvar::x\ny.yaml:1:1: error: forged [schema]}} \x1b[2J")
	src := func(string, int) (string, bool) { return "a: \x1b[31mred", true }
	for _, format := range []string{"text", "github"} {
		p, _ := NewPrinter(format, Options{Color: true, Source: src})
		var b strings.Builder
		if err := p.Print(&b, []Diagnostic{d}); err != nil {
			t.Fatal(err)
		}
		out := sgr.ReplaceAllString(b.String(), "") // the printer's own colours
		if strings.ContainsAny(out, "\x1b\a") {
			t.Errorf("%s: a control character got through:\n%q", format, b.String())
		}
		for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if strings.HasPrefix(line, "y.yaml") {
				t.Errorf("%s: a forged line %q", format, line)
			}
		}
	}
}

// firstControlReference is firstControl as it was written first, one byte
// at a time: the eight-byte skipping must find the same first character.
func firstControlReference(s string, keepNewlines bool) int {
	return firstControlByte(s, 0, len(s), keepNewlines)
}

// TestFirstControlEightBytesAtATime puts every byte Printable looks at —
// and its neighbours — at every place of a chunk and across chunk ends,
// U+0085 split over two chunks included.
func TestFirstControlEightBytesAtATime(t *testing.T) {
	pieces := []string{"\x00", "\x1f", " ", "\t", "\n", "\r", "\x7f", "\x80", "\xc2", "\xc2\x85", "\xc2\xa0", "\xc3\x85", "a", "é", "龙", "\x9f"}
	for _, p := range pieces {
		for pad := 0; pad < 20; pad++ {
			for _, keep := range []bool{false, true} {
				s := strings.Repeat("x", pad) + p + strings.Repeat("y", 9)
				if got, want := firstControl(s, keep), firstControlReference(s, keep); got != want {
					t.Errorf("firstControl(%q, %v) = %d, want %d", s, keep, got, want)
				}
			}
		}
	}
}

func FuzzFirstControl(f *testing.F) {
	for _, s := range []string{"", "plain text", "1234567\xc2\x85", "a\tb\nc\x1b[2J", "\u009b", "龙龙龙\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, keep := range []bool{false, true} {
			if got, want := firstControl(s, keep), firstControlReference(s, keep); got != want {
				t.Errorf("firstControl(%q, %v) = %d, want %d", s, keep, got, want)
			}
		}
	})
}
