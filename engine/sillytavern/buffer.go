package sillytavern

import (
	"math"
	"strings"
)

// Scan states (world-info.js scan_state).
const (
	stateNone = iota
	stateInitial
	stateRecursion
	stateMinActivations
)

// SillyTavern joins the texts it scans with a line break and a \x01 before
// each, so that no key matches across two messages and each message starts
// at a boundary.
const (
	matcher = "\x01"
	joiner  = "\n" + matcher
)

// buffer is what one generation scans: the chat newest first, the injected
// prompts that are scanned (the Author's Note with allowWIScan), and the
// contents recursion added, one text per scan pass.
type buffer struct {
	chat    []string // "Name: message", trimmed, newest first
	inject  []string
	recurse []string
	sources []string // the extra matching sources (matchSourceFields' texts)
	skew    float64  // min activations' extra depth
	global  float64  // settings' scan depth
	windows map[windowKey]*window
}

type windowKey struct {
	depth   int
	recurse int   // recursion texts included
	sources uint8 // extra matching sources included
}

// window is the text one entry's regular expressions are tested on.
type window struct {
	text string
}

func newBuffer(chat []string, global float64) *buffer {
	return &buffer{chat: chat, global: global, windows: map[windowKey]*window{}}
}

// depth is the number of messages an entry scans: its own scan depth, else
// the global one plus the min activations' skew.
func (b *buffer) depth(e *entry) float64 {
	if e.scanDepth != nil {
		return *e.scanDepth
	}
	return b.global + b.skew
}

// get is the text an entry is matched against in this scan state: its
// messages, the injections and (except while min activations widens the
// window) the recursion texts. A depth of 0 or less scans nothing at all.
func (b *buffer) get(e *entry, state int) *window {
	d := b.depth(e)
	if d <= 0 || math.IsNaN(d) {
		return b.cached(windowKey{depth: -1}, func() string { return "" })
	}
	n := b.messages(d)
	rec := len(b.recurse)
	if state == stateMinActivations {
		rec = 0
	}
	return b.cached(windowKey{depth: n, recurse: rec, sources: e.sources}, func() string {
		var s strings.Builder
		s.WriteString(matcher)
		for i, m := range b.chat[:n] {
			if i > 0 {
				s.WriteString(joiner)
			}
			s.WriteString(m)
		}
		// The extra sources come right after the chat, as 1.18.0's get()
		// appends them.
		for i, t := range b.sources {
			if e.sources&(1<<i) != 0 && t != "" {
				s.WriteString(joiner)
				s.WriteString(t)
			}
		}
		for _, t := range b.inject {
			s.WriteString(joiner)
			s.WriteString(t)
		}
		for _, t := range b.recurse[:rec] {
			s.WriteString(joiner)
			s.WriteString(t)
		}
		return s.String()
	})
}

func (b *buffer) cached(k windowKey, build func() string) *window {
	if w, ok := b.windows[k]; ok {
		return w
	}
	w := &window{text: build()}
	b.windows[k] = w
	return w
}

// messages is how many messages a window of depth d holds (d > 0).
func (b *buffer) messages(d float64) int {
	return min(int(min(d, maxScanDepth)), len(b.chat))
}
