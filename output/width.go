package output

import (
	"strings"

	"golang.org/x/text/width"
)

// Width is how many terminal columns s takes: two for each wide or
// fullwidth character (CJK, 、), one for the others. The tables of the text
// writers and of cmd line up by it.
func Width(s string) int {
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

// Pad is s followed by spaces up to w columns (s itself when wider).
func Pad(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-Width(s)))
}
