package cmd

import (
	"strings"

	"github.com/lorekit/lore/output"
)

// textWidth and pad are output's: the tables of cmd line up as the
// writers' do.
var textWidth, pad = output.Width, output.Pad

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
