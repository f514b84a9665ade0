package cmd

import (
	"strings"

	"golang.org/x/text/width"
)

// textWidth is how many terminal columns s takes: two for each wide or
// fullwidth character (、 and CJK), one for the others.
func textWidth(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x1100 {
			if k := width.LookupRune(r).Kind(); k == width.EastAsianWide || k == width.EastAsianFullwidth {
				n++
			}
		}
	}
	return n
}

// pad is s followed by spaces up to w columns (s itself when wider).
func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-textWidth(s)))
}

// wrapWords breaks s into lines of at most w columns at spaces; a word
// longer than w has a line of its own.
func wrapWords(s string, w int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case textWidth(line)+1+textWidth(word) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}
