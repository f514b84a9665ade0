package lint

import (
	"sort"
	"testing"
)

// TestJoinedCursor: the cursor names the text holding an offset as a
// search of the starts does, for offsets in order, repeated and out of order.
func TestJoinedCursor(t *testing.T) {
	starts := []int{0, 7, 8, 15, 30}
	offs := []int{0, 3, 6, 7, 7, 8, 20, 9, 29, 30, 45, 2, 15, 14, 0}
	c := joinedCursor{starts: starts}
	for _, off := range offs {
		if got, want := c.of(off), sort.SearchInts(starts, off+1)-1; got != want {
			t.Errorf("offset %d: text %d, want %d", off, got, want)
		}
	}
}
