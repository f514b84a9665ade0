package lint

import (
	"fmt"

	"github.com/lorekit/lore/render"
)

// checkEngineDivergence reports, when the lint judges by an engine other than
// lore's, the entries that engine activates or places otherwise than lore's
// engine would, with both outcomes: what `lore render` shows without
// --engine is not what the creator's engine sends for them. It is off by
// default (it answers "where do the engines differ for my book?", rather
// than finding a mistake); give it a level in .lore.yaml or run
// `lore lint --enable engine-divergence`.
func checkEngineDivergence(c *Context) {
	if c.Engine.Fates == nil || c.Engine.LoreFates == nil {
		return
	}
	for i, e := range c.Book.Entries {
		if !e.Enabled || i >= len(c.Engine.LoreFates) {
			continue
		}
		f, lf := c.Engine.Fates[i], c.Engine.LoreFates[i]
		if f.Activation == lf.Activation && f.Placement.Text() == lf.Placement.Text() && f.Sent() == lf.Sent() {
			continue
		}
		c.reportGrouped(e, e.FieldPos("id"), "%d entries are activated or placed otherwise by "+c.engineSays()+" than by lore's engine", entryName(e),
			"entry %s: %s %s; lore's engine %s", entryName(e), c.engineSays(), fateSays(f), fateSays(lf))
	}
}

// fateSays reads an engine's account of an entry: "activates on keywords and
// puts it in the triggered block (step 6)", "never sends it: …".
func fateSays(f render.Fate) string {
	if !f.Sent() {
		return "never sends it (" + f.Never.Text() + ")"
	}
	how := map[string]string{
		"always":     "sends it always",
		"keywords":   "activates it on its keywords",
		"conditions": "activates it on its conditions alone",
		"recursion":  "activates it only through another entry's content",
	}[f.Activation]
	if how == "" {
		how = fmt.Sprintf("activates it by %s", f.Activation)
	}
	return how + " and puts it in " + f.Placement.Text()
}
