package render

import (
	"fmt"
	"strings"
	"sync"

	"github.com/lorekit/lore/schema"
)

// Macros can multiply text: {{char}} written 20,000 times with a character
// name of 100 KB, or {{getvar::x}} of a long value, makes gigabytes of a
// book of kilobytes. What the macros of one render may add is bounded by a
// multiple of the text they start from, with a floor for small books and an
// absolute cap; an expansion that would pass it leaves the rest of its text
// as written and the render reports where (Result.Limits).
const (
	MacroGrowth    = 4        // times the text of the lorebook's entries and of the chat
	MinMacroBudget = 1 << 20  // bytes every render may add, however small the book
	MaxMacroBudget = 16 << 20 // bytes no render may add, however large the book
)

// MacroBudget is what the macros of one render may still add to its text,
// shared by every expander of that render; it is safe for concurrent use.
type MacroBudget struct {
	mu         sync.Mutex
	size, left int
	over       *macroOverflow
}

// macroOverflow is the first expansion that would have passed the budget.
type macroOverflow struct {
	text  string // the text being expanded
	macro string // the macro that did not fit, as written
	n     int    // what it expands to, in bytes
}

// NewMacroBudget sizes the budget of one render from its input's text.
func NewMacroBudget(in *Input) *MacroBudget {
	size := 0
	if in != nil && in.Book != nil {
		for _, e := range in.Book.Entries {
			if e != nil {
				size += len(e.Content) + len(e.Name)
			}
		}
		m := &in.Book.Manifest
		size += len(m.Name) + len(m.Character) + len(m.Format)
	}
	if in != nil && in.Transcript != nil {
		for i := range in.Transcript.Messages { // by index: a message is a large struct
			size += len(in.Transcript.Messages[i].Content)
		}
		size += len(in.Transcript.Summary)
	}
	return &MacroBudget{size: size, left: min(max(MacroGrowth*size, MinMacroBudget), MaxMacroBudget)}
}

// Take asks for n more bytes of text, the expansion of macro (as written)
// in text. It is false, and records the first such macro, when they would
// pass the budget. A nil budget grants everything.
func (b *MacroBudget) Take(n int, macro, text string) bool {
	if b == nil || n <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.over == nil && n <= b.left {
		b.left -= n
		return true
	}
	if b.over == nil {
		b.over = &macroOverflow{text: text, macro: macro, n: n}
		b.left = 0
	}
	return false
}

// Spent says the budget ran out: every expander leaves its text as written.
func (b *MacroBudget) Spent() bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over != nil
}

// Limit is the message for Result.Limits when the budget ran out, "" when
// it did not: the entry whose content was being expanded (by its position
// in book), the macro, and the bound.
func (b *MacroBudget) Limit(book *schema.Lorebook) string {
	e, msg := b.Overflow(book)
	switch {
	case msg == "":
		return ""
	case e == nil:
		return "a text of the prompt: " + msg
	}
	return fmt.Sprintf("%s: entry %q: %s", e.Pos, e.ID, msg)
}

// Overflow says, when the budget ran out, which entry of book was being
// expanded (nil when it was another text) and why, "" when it did not.
func (b *MacroBudget) Overflow(book *schema.Lorebook) (*schema.Entry, string) {
	if b == nil {
		return nil, ""
	}
	b.mu.Lock()
	over := b.over
	b.mu.Unlock()
	if over == nil {
		return nil, ""
	}
	var at *schema.Entry
	if book != nil {
		for _, e := range book.Entries {
			if e != nil && e.Content == over.text {
				at = e
				break
			}
		}
	}
	return at, fmt.Sprintf("its macros expand past the macro budget of this render: %s of added text (%d × the %s of the lorebook's entries and the chat, at least %s, at most %s); %s adds %s more, so it and the rest of the text are left as written",
		humanBytes(min(max(MacroGrowth*b.size, MinMacroBudget), MaxMacroBudget)), MacroGrowth, humanBytes(b.size),
		humanBytes(MinMacroBudget), humanBytes(MaxMacroBudget), shortMacro(over.macro), humanBytes(over.n))
}

func shortMacro(s string) string {
	if len(s) > 60 {
		cut := 57
		for cut > 0 && s[cut]&0xc0 == 0x80 {
			cut--
		}
		return s[:cut] + "…}}"
	}
	return s
}

func humanBytes(n int) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
