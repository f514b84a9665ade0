package lint

import "github.com/lorekit/lore/render"

// checkMacroBudget expands every enabled entry's content as one render
// would and reports the entry where the macros pass the render's macro
// budget (render.MacroBudget): {{char}} used thousands of times with a long
// name, {{getvar}} of a long value. Past it a render leaves the rest as
// written and exits 1; the other rules read contents expanded only so far.
func checkMacroBudget(c *Context) {
	in := &render.Input{Book: c.Book, Settings: c.Settings}
	if c.Vars != nil {
		in.Vars = c.Vars.Values
	}
	m := render.NewMacros(in)
	for _, e := range c.Book.Entries {
		if !e.Enabled {
			continue
		}
		m.Expand(e.Content)
		if at, msg := m.Budget().Overflow(c.Book); msg != "" {
			if at == nil {
				at = e
			}
			c.Report(at, at.Pos, "entry %s: %s", entryName(at), msg)
			return
		}
	}
}
