// Package tokenize counts tokens with the tokenizers lore embeds (o200k_base,
// cl100k_base, and a chars/4 estimate). It owns nothing about budgets: it only
// counts and cuts text, caching each distinct text once. It must not import any
// other lore package.
package tokenize

import (
	"fmt"
	"strings"
	"sync"
)

// Counter counts the tokens of a text and can cut a text to a token count.
// Implementations are safe for concurrent use.
type Counter interface {
	// Name is the tokenizer id: "o200k_base", "cl100k_base" or "chars4".
	Name() string
	// Count returns the number of tokens in s.
	Count(s string) int
	// Truncate returns the longest prefix of s that is at most n tokens, cut on a
	// token boundary (and never inside a UTF-8 sequence).
	Truncate(s string, n int) string
}

// Tokenizer ids.
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"
	Chars4     = "chars4"
	// Default is the tokenizer used when neither the manifest nor a flag names one.
	Default = O200kBase
)

// Names lists the valid tokenizer ids, default first.
func Names() []string { return []string{O200kBase, Cl100kBase, Chars4} }

var (
	sharedMu sync.Mutex
	shared   = map[string]Counter{}
)

// Get returns the Counter for a tokenizer id; "" means Default. Counters are
// shared by the whole process (one per id), so a lint and a render in the same
// run count each distinct text once between them, and the BPE vocabularies are
// decoded once.
func Get(name string) (Counter, error) {
	if name == "" {
		name = Default
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if c, ok := shared[name]; ok {
		return c, nil
	}
	var c Counter
	switch name {
	case O200kBase, Cl100kBase:
		c = newBPE(name)
	case Chars4:
		c = newCached(chars4{})
	default:
		return nil, fmt.Errorf("unknown tokenizer %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	shared[name] = c
	return c, nil
}

// counter is what a tokenizer implements; cached adds the content cache.
type counter interface {
	Name() string
	Count(s string) int
	Truncate(s string, n int) string
}

// cached memoises Count by content. Lorebooks repeat texts (the same card is
// counted by the window scan, the budget and the report; lint counts every
// entry again), and BPE counting is the most expensive step of a render.
//
// The counters live as long as the process, so the memo is bounded: texts go
// into the current generation until it holds cacheBytes of text, which then
// becomes the previous generation (the one before is dropped). A text counted
// again is moved to the current one, so what is in use survives; memory stays
// under two generations, and no text is ever counted wrong, only again.
type cached struct {
	inner     counter
	mu        sync.Mutex
	cur, prev map[string]int
	curBytes  int
	limit     int
}

// cacheBytes is the text one generation holds: a lorebook of 100,000 entries
// of 300 bytes each fits in one.
const cacheBytes = 64 << 20

func newCached(c counter) *cached { return newCachedLimit(c, cacheBytes) }

func newCachedLimit(c counter, limit int) *cached {
	return &cached{inner: c, cur: map[string]int{}, limit: limit}
}

func (c *cached) Name() string { return c.inner.Name() }

func (c *cached) Count(s string) int {
	if s == "" {
		return 0
	}
	c.mu.Lock()
	n, ok := c.cur[s]
	if !ok {
		if n, ok = c.prev[s]; ok {
			c.store(s, n)
		}
	}
	c.mu.Unlock()
	if ok {
		return n
	}
	// Counted outside the lock so concurrent callers do not serialise on the
	// BPE; two goroutines may count the same new text once each, which is
	// harmless.
	n = c.inner.Count(s)
	c.mu.Lock()
	c.store(s, n)
	c.mu.Unlock()
	return n
}

// store puts a count in the current generation, starting a new one when it
// is full. Called with mu held.
func (c *cached) store(s string, n int) {
	if _, ok := c.cur[s]; ok {
		return
	}
	if c.curBytes+len(s) > c.limit && len(c.cur) > 0 {
		c.prev, c.cur, c.curBytes = c.cur, map[string]int{}, 0
	}
	c.cur[s] = n
	c.curBytes += len(s)
}

func (c *cached) Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if c.Count(s) <= n {
		return s
	}
	return c.inner.Truncate(s, n)
}
