package sillytavern

import (
	"github.com/lorekit/lore/schema"
)

// chances says, for lint (render.Description.Chances), what may leave out an
// entry SillyTavern has activated: the probability it is sent with (100 when
// it is not rolled) and the inclusion groups it is in, of which SillyTavern
// sends one entry each. es are the book's entries as Describe read them, by
// their place in the book.
func chances(es []*entry) func(e *schema.Entry, i int) (probability float64, groups []string) {
	return func(_ *schema.Entry, i int) (float64, []string) {
		if i < 0 || i >= len(es) || es[i] == nil {
			return 100, nil
		}
		x := es[i]
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
