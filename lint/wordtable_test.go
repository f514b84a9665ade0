package lint

import (
	"fmt"
	"testing"
)

// TestWordTable counts words as a map does, across the table's growth, and
// keeps them in the order they first appear.
func TestWordTable(t *testing.T) {
	tab := newWordTable()
	want := map[string]int{}
	var order []string
	for i := range 20000 {
		w := fmt.Sprintf("w%d", (i*7919)%5003)
		if i%2 == 0 {
			tab.add(w)
		} else {
			tab.addBytes([]byte(w))
		}
		if want[w] == 0 {
			order = append(order, w)
		}
		want[w]++
	}
	if len(tab.list) != len(order) {
		t.Fatalf("%d distinct words, want %d", len(tab.list), len(order))
	}
	for i, w := range tab.list {
		if w != order[i] {
			t.Fatalf("word %d is %q, want %q (first-appearance order)", i, w, order[i])
		}
		if tab.count[i] != want[w] {
			t.Errorf("%q counted %d times, want %d", w, tab.count[i], want[w])
		}
	}
	if 2*len(tab.list) > len(tab.slots) {
		t.Errorf("%d words in %d slots: more than half full", len(tab.list), len(tab.slots))
	}
}
