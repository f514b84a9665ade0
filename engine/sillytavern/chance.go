package sillytavern

import (
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Chances says, for lint, what may leave out an entry SillyTavern has
// activated: the probability it is sent with (100 when it is not rolled) and
// the inclusion groups it is in, of which SillyTavern sends one entry each.
// Each entry is read when asked, so a rule that asks about a few entries
// costs a few reads.
func Chances(in *render.Input) func(e *schema.Entry, i int) (probability float64, groups []string) {
	return func(e *schema.Entry, i int) (float64, []string) {
		x := newEntry(e, formats.STEntry(e), i)
		p := 100.0
		if x.useProbability && !x.probabilityIs100 {
			p = max(0, min(100, x.probability))
		}
		var groups []string
		if x.group != "" {
			for _, g := range groupSplit.Split(x.group, -1) {
				if g != "" {
					groups = append(groups, g)
				}
			}
		}
		return p, groups
	}
}
