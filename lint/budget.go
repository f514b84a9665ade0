package lint

import (
	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/tokenize"
)

// sizing is render's measurement of what the lorebook always sends (no
// transcript), shared by required-over-cap and entry-over-budget so the prompt is
// assembled and counted once.
func (c *Context) sizing() *render.Sizing {
	if c.shared.sizing == nil {
		counter, err := tokenize.Get(c.Settings.Tokenizer)
		if err != nil {
			counter, _ = tokenize.Get(tokenize.Default) // schema reports the bad name
		}
		c.shared.counter = counter
		in := &render.Input{Book: c.Book, Settings: c.Settings, Counter: counter}
		if c.Vars != nil {
			in.Vars = c.Vars.Values
		}
		c.shared.sizing = lore.SizeUp(in)
	}
	return c.shared.sizing
}
