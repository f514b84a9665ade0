package lore

import (
	"strings"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// SizeUp sizes a lorebook's always-sent pieces (see Sizing) for an Input's
// variables and seed; its transcript is ignored.
func SizeUp(in *render.Input) *render.Sizing {
	local := *in
	local.Transcript = &schema.Transcript{}
	in = &local
	if in.Book == nil {
		in.Book = &schema.Lorebook{}
	}
	if p, err := render.Prepare(in); err == nil {
		in = p // one macro budget for every expansion below
	}
	pre := Assemble(in, Activate(in, 0))
	sz := &render.Sizing{}
	sz.RequiredTotal, sz.RequiredCap = render.RequiredSize(pre, in.Settings, in.Counter)
	_, sz.Report = render.Budget(pre, in.Settings, in.Counter)
	sz.Remainder = sz.Report.Remainder
	sz.CardsShare = render.FloorShare(in.Settings.Shares.Cards, sz.Remainder)
	sz.Window = render.WindowForShare(sz.CardsShare)
	// Macros expand in entry order (they share one budget); the counts,
	// most of the work, run on every core.
	macros := render.NewMacros(in)
	var cards []*schema.Entry
	var texts []string
	for _, e := range in.Book.Entries {
		if !e.Enabled || e.Section != schema.SectionChatHistory || e.Role == render.RoleGreeting {
			continue
		}
		cards = append(cards, e)
		texts = append(texts, strings.TrimSpace(macros.Expand(e.Content)))
	}
	for i, n := range tokenize.CountAll(in.Counter, texts) {
		sz.Cards = append(sz.Cards, render.CardSize{Entry: cards[i], Tokens: n, Over: n > sz.CardsShare})
	}
	if l := in.MacroBudget().Limit(in.Book); l != "" {
		sz.Limits = append(sz.Limits, l)
	}
	return sz
}
