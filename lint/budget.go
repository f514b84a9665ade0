package lint

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// sizing is what the budget rules measure, once per run: render's sizing of
// the always-sent pieces, and the story cards it left uncounted.
type sizing struct {
	*render.Sizing
	left []*schema.Entry
}

// measured says lore's budget can be measured: the lint knows lore's
// engine, which sizes what a book always sends (Engine.Sizer).
func (c *Context) measured() bool { return c.Engine.Sizer != nil }

// sizing measures the lorebook as render's budget does, counting as few
// tokens as it can: a card of n bytes is at most n tokens (every tokenizer
// lore has gives a token at least one byte), so a keyword-triggered card no
// longer than the cards' share in bytes fits without being counted. Such
// cards play no part in what the lorebook always sends, so they are left out
// of the book render sizes; only cards larger in bytes are counted. This is
// what keeps lint close to validate on books of thousands of entries.
func (c *Context) sizing() *sizing {
	if c.shared.sizing != nil {
		return c.shared.sizing
	}
	counter, err := tokenize.Get(c.Settings.Tokenizer)
	if err != nil {
		counter, _ = tokenize.Get(tokenize.Default) // schema reports the bad name
	}
	c.shared.counter = counter
	sz := c.sizeWith(counter)
	c.shared.sizing = sz
	return sz
}

// sizeWith is the engine's sizing of the lean book, counted by counter.
func (c *Context) sizeWith(counter tokenize.Counter) *sizing {
	lean, left := leanBook(c.Book)
	in := &render.Input{Book: lean, Settings: c.Settings, Counter: counter}
	if c.Vars != nil {
		in.Vars = c.Vars.Values
	}
	return &sizing{Sizing: c.Engine.Sizer.SizeUp(in), left: left}
}

// fitsByBytes says that neither budget rule can report anything, without a
// tokenizer: sized with each text's bytes for its tokens (an upper bound for
// every tokenizer lore has), the Required pieces are within the cap and no
// story card is larger than the cards' share. More bytes only ever mean a
// larger Required part and so a smaller share, so what fits by bytes fits
// by tokens; a book it cannot vouch for is counted as before. This keeps lint
// from loading a 200,000-word vocabulary (about a tenth of lint's time on
// bookgen's 10,000-entry book) for books whose every card is small.
func (c *Context) fitsByBytes() bool {
	if c.shared.fits != nil {
		return *c.shared.fits
	}
	fits := c.boundsFit()
	c.shared.fits = &fits
	return fits
}

func (c *Context) boundsFit() bool {
	if c.Engine.Sizer == nil {
		return false
	}
	sz := c.sizeWith(byteCounter{})
	if sz.RequiredTotal > sz.RequiredCap {
		return false
	}
	for _, card := range sz.Cards {
		if card.Tokens > sz.CardsShare {
			return false
		}
	}
	for _, e := range sz.left {
		if len(strings.TrimSpace(c.macros().Expand(e.Content))) > sz.CardsShare {
			return false
		}
	}
	return true
}

// byteCounter counts a text's bytes, which no tokenizer's count exceeds.
type byteCounter struct{}

func (byteCounter) Name() string       { return "bytes" }
func (byteCounter) Count(s string) int { return len(s) }
func (byteCounter) Truncate(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:max(n, 0)]
}

// cardsOver returns the story cards larger than limit tokens (constant cards
// first; findings are sorted by position later), counting only the cards whose bytes do not already prove they fit.
func (c *Context) cardsOver(limit int) []render.CardSize {
	if c.Engine.CardBudget != nil {
		return c.entriesOver(limit)
	}
	sz := c.sizing()
	var out []render.CardSize
	for _, card := range sz.Cards {
		if card.Tokens > limit {
			out = append(out, card)
		}
	}
	for _, e := range sz.left {
		text := strings.TrimSpace(c.macros().Expand(e.Content))
		if len(text) <= limit {
			continue
		}
		if n := c.shared.counter.Count(text); n > limit {
			out = append(out, render.CardSize{Entry: e, Tokens: n, Over: true})
		}
	}
	return out
}

// leanBook is the lorebook without the keyword-triggered story cards that
// cannot change what it always sends, and those cards. Without a chat no
// keyword fires, so such a card is in the prompt only through recursion
// from an always-sent entry, and then it is a card, which takes nothing from
// the Required part. It keeps every card that could change that: one whose
// name {{char}} may take (role written character), greetings, and all of them
// when some keyword-triggered entry outside chat-history exists (a card
// activated by recursion could activate it in turn).
func leanBook(book *schema.Lorebook) (*schema.Lorebook, []*schema.Entry) {
	var keep, left []*schema.Entry
	for _, e := range book.Entries {
		if e.Enabled && !e.AlwaysSend && e.Section != schema.SectionChatHistory && len(e.Keywords) > 0 {
			return book, nil
		}
		if e.Enabled && !e.AlwaysSend && e.Section == schema.SectionChatHistory &&
			e.Role != render.RoleGreeting && !(e.Role == "character" && e.Has("role")) {
			left = append(left, e)
			continue
		}
		keep = append(keep, e)
	}
	if len(left) == 0 {
		return book, nil
	}
	lean := *book
	lean.Entries = keep
	return &lean, left
}

// cardBudget is the room one triggered entry competes for: the engine's, else
// lore's story-card share.
func (c *Context) cardBudget() CardBudget {
	if c.Engine.CardBudget != nil {
		return c.Engine.CardBudget(c)
	}
	sz := c.sizing()
	return CardBudget{Tokens: sz.CardsShare, Says: fmt.Sprintf("the whole story-card share of %d tokens (%.0f%% of the %d tokens Required leaves of %s)",
		sz.CardsShare, c.Settings.Shares.Cards*100, sz.Remainder, c.contextSays())}
}

// noRoom says the settings leave nothing for the prompt (a reserve as large
// as the context): the budget rules would only repeat the schema's error.
func (c *Context) noRoom() bool { return c.Settings.ResponseReserve >= c.Settings.ContextTokens }

// entriesOver is cardsOver for an engine with a budget of its own: lore's
// sizing of what is always sent plays no part, so only the enabled
// chat-history entries whose bytes do not already prove they fit are counted.
func (c *Context) entriesOver(limit int) []render.CardSize {
	counter, err := tokenize.Get(c.Settings.Tokenizer)
	if err != nil {
		counter, _ = tokenize.Get(tokenize.Default) // schema reports the bad name
	}
	var out []render.CardSize
	for _, e := range c.Book.Entries {
		if !e.Enabled || e.Section != schema.SectionChatHistory || e.Role == render.RoleGreeting {
			continue
		}
		text := strings.TrimSpace(c.macros().Expand(e.Content))
		if len(text) <= limit {
			continue
		}
		if n := counter.Count(text); n > limit {
			out = append(out, render.CardSize{Entry: e, Tokens: n, Over: true})
		}
	}
	return out
}
