package lore

import (
	"strings"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
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
	macros := render.NewMacros(in)
	for _, e := range in.Book.Entries {
		if !e.Enabled || e.Section != schema.SectionChatHistory || e.Role == render.RoleGreeting {
			continue
		}
		n := in.Counter.Count(strings.TrimSpace(macros.Expand(e.Content)))
		sz.Cards = append(sz.Cards, render.CardSize{Entry: e, Tokens: n, Over: n > sz.CardsShare})
	}
	if l := in.MacroBudget().Limit(in.Book); l != "" {
		sz.Limits = append(sz.Limits, l)
	}
	return sz
}
