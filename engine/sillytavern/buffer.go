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
	skew    float64 // min activations' extra depth
	global  float64 // settings' scan depth
	windows map[windowKey]*window
	regexes map[string]*stRegex
	lower   func(string) string
}

type windowKey struct {
	depth   int
	recurse int // recursion texts included
}

// window is the text one entry's keys are matched against.
type window struct {
	text  string
	lower string
	low   bool
}

func newBuffer(chat []string, global float64) *buffer {
	return &buffer{chat: chat, global: global, windows: map[windowKey]*window{}, regexes: map[string]*stRegex{},
		lower: jsLower}
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
	n := int(math.Min(d, maxScanDepth))
	n = min(n, len(b.chat))
	rec := len(b.recurse)
	if state == stateMinActivations {
		rec = 0
	}
	return b.cached(windowKey{depth: n, recurse: rec}, func() string {
		var s strings.Builder
		s.WriteString(matcher)
		for i, m := range b.chat[:n] {
			if i > 0 {
				s.WriteString(joiner)
			}
			s.WriteString(m)
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

func (w *window) lowered(lower func(string) string) string {
	if !w.low {
		w.lower, w.low = lower(w.text), true
	}
	return w.lower
}

// matchKey is SillyTavern's matchKeys: a /regex/flags key is tested on the
// text as it is; any other key is looked for in the text (both lower-cased
// unless the entry is case-sensitive), as a whole word when the entry asks
// for whole words and the key is one word — no ASCII letter, digit or _
// right before or after it.
func (b *buffer) matchKey(w *window, key string, e *entry, s *Settings) bool {
	re, seen := b.regexes[key]
	if !seen {
		re = parseRegex(key)
		b.regexes[key] = re
	}
	if re != nil {
		return re.test(w.text)
	}
	cs := s.CaseSensitive
	if e.caseSensitive != nil {
		cs = *e.caseSensitive
	}
	hay := w.text
	if !cs {
		hay = w.lowered(b.lower)
		key = b.lower(key)
	}
	whole := s.MatchWholeWords
	if e.matchWholeWords != nil {
		whole = *e.matchWholeWords
	}
	if !whole || hasJSSpace(key) {
		return strings.Contains(hay, key)
	}
	return containsWord(hay, key)
}

// containsWord says whether key occurs in hay with no ASCII word character
// right before or after it (SillyTavern's (?:^|\W)key(?:$|\W)).
func containsWord(hay, key string) bool {
	for from := 0; from <= len(hay); {
		i := strings.Index(hay[from:], key)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(key)
		if (i == 0 || !wordByte(hay[i-1])) && (end == len(hay) || !wordByte(hay[end])) {
			return true
		}
		from = i + 1
	}
	return false
}

func (b *buffer) addRecurse(text string) { b.recurse = append(b.recurse, text) }
