package tokenize

import (
	"fmt"
	"testing"
)

// TestCountAll: counting many texts on every core gives what counting them one
// by one gives, in order.
func TestCountAll(t *testing.T) {
	c, err := Get(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, 3*parallelFrom+7)
	for i := range texts {
		texts[i] = fmt.Sprintf("entry %d of the tavern, number %d", i, i*i)
	}
	got := CountAll(c, texts)
	for i, s := range texts {
		if want := c.Count(s); got[i] != want {
			t.Fatalf("text %d: %d tokens, want %d", i, got[i], want)
		}
	}
	if len(CountAll(c, nil)) != 0 {
		t.Error("no texts, some counts")
	}
}
