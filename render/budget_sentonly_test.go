package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/lorekit/lore/tokenize"
)

// countingCounter records which texts were counted.
type countingCounter struct {
	tokenize.Counter
	mu   sync.Mutex
	seen map[string]int
}

func (c *countingCounter) Count(s string) int {
	c.mu.Lock()
	c.seen[s]++
	c.mu.Unlock()
	return c.Counter.Count(s)
}

// TestSentOnlyCountsNewestFirst: with SentOnly, history is counted newest
// first and only until the first message that does not fit; what is sent
// and every field of the JSON report are the same as with the whole count.
func TestSentOnlyCountsNewestFirst(t *testing.T) {
	var pieces []Piece
	const n = 400
	for i := range n {
		pieces = append(pieces, msg(i, 10+i%7, false))
	}
	pieces = append(pieces, msg(n, 20, true), req(budgetPostHistory, "post", 30))
	s := settings(1000)
	full := &countingCounter{Counter: counter(t), seen: map[string]int{}}
	keptFull, rFull := Budget(pieces, s, full)
	lazy := &countingCounter{Counter: counter(t), seen: map[string]int{}}
	keptLazy, rLazy := BudgetWith(pieces, s, lazy, BudgetOptions{SentOnly: true})
	if !slices.EqualFunc(keptFull, keptLazy, func(a, b Piece) bool { return a.Key == b.Key && a.Content == b.Content }) {
		t.Fatalf("SentOnly changes what is sent:\n full %v\n lazy %v", keys(keptFull), keys(keptLazy))
	}
	a, _ := json.Marshal(rFull)
	b, _ := json.Marshal(rLazy)
	if string(a) != string(b) {
		t.Errorf("SentOnly changes the JSON report:\n full %s\n lazy %s", a, b)
	}
	kept := len(keptFull) - 2
	if kept <= 0 || kept >= n-1 {
		t.Fatalf("%d of %d messages kept: the test wants a cut history", kept, n)
	}
	for i := range n {
		text := tok(fmt.Sprintf("m%d", i), 10+i%7)
		weighed := i >= n-kept-1 // the kept ones and the one that did not fit
		if got := lazy.seen[text]; weighed && got != 1 || !weighed && got != 0 {
			t.Errorf("message:%d counted %d times with SentOnly (kept are the newest %d)", i, got, kept)
		}
		if full.seen[text] != 1 {
			t.Errorf("message:%d counted %d times by the whole count", i, full.seen[text])
		}
	}
}
