package lint

import "github.com/lorekit/lore/render"

// macros expands content the way render does before scanning it for keywords, so
// that `{{char}}` standing for a keyword closes a loop in lint as it does in a
// render. Built once per run.
func (c *Context) macros() *render.Macros {
	if c.shared.macros == nil {
		in := &render.Input{Book: c.Book, Settings: c.Settings}
		if c.Vars != nil {
			in.Vars = c.Vars.Values
		}
		c.shared.macros = render.NewMacros(in)
	}
	return c.shared.macros
}
