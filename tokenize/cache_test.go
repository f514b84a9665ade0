package tokenize

import (
	"strconv"
	"strings"
	"testing"
)

// countingInner counts how often the tokenizer behind the cache runs.
type countingInner struct{ calls int }

func (c *countingInner) Name() string                    { return "counting" }
func (c *countingInner) Count(s string) int              { c.calls++; return len(s) }
func (c *countingInner) Truncate(s string, n int) string { return s[:min(n, len(s))] }

// TestCacheBounded: the memo holds at most two generations of limit bytes of
// text, keeps a text in use across generations, and counts right whatever it
// forgot.
func TestCacheBounded(t *testing.T) {
	inner := &countingInner{}
	c := newCachedLimit(inner, 1000)
	text := func(i int) string { return strconv.Itoa(i) + strings.Repeat("x", 96) } // ~100 bytes
	for i := 0; i < 1000; i++ {
		if got := c.Count(text(i)); got != len(text(i)) {
			t.Fatalf("Count(text %d) = %d", i, got)
		}
		c.Count(text(0)) // in use all along
		held := 0
		for s := range c.cur {
			held += len(s)
		}
		for s := range c.prev {
			held += len(s)
		}
		if held > 2*1000+200 {
			t.Fatalf("after %d texts the cache holds %d bytes", i+1, held)
		}
	}
	if inner.calls != 1000 {
		t.Errorf("the tokenizer ran %d times for 1,000 distinct texts, want 1,000: the text in use was forgotten", inner.calls)
	}
	c.Count(text(1)) // long forgotten: counted again
	if inner.calls != 1001 {
		t.Errorf("calls = %d, want 1001", inner.calls)
	}
}
