package reply

import (
	"fmt"
	"strings"
	"testing"
)

// TestCompileBounds: parts written into parts that multiply (ten
// alternatives, each naming the next part twice, nine levels: 20^9 lines)
// stop at the bounds instead of expanding, and the format says why it is
// not checked.
func TestCompileBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nf:\n  rule: must\n  format:\n    basic: |-\n      <x>\n      ${p0}\n      </x>\n")
	for i := 0; i < 9; i++ {
		fmt.Fprintf(&b, "    p%d:\n", i)
		for j := 0; j < 10; j++ {
			fmt.Fprintf(&b, "      a%d: |-\n        line %d %d\n        ${p%d}\n        ${p%d}\n", j, i, j, i+1, i+1)
		}
	}
	fs := loadFormats(t, b.String())
	if len(fs) != 1 || fs[0].Unchecked != "it expands to more than 2000 lines" || len(fs[0].pats) > maxPatterns {
		t.Fatalf("formats %d, unchecked %q, %d lines", len(fs), fs[0].Unchecked, len(fs[0].pats))
	}
	if got := findings(fs, "<x>\nfoo\n</x>", true); len(got) != 0 {
		t.Errorf("an unchecked format reported %v", got)
	}
}
