package yumina

import (
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
)

// Profile is Yumina's engine as data (render.Profile): JavaScript's word
// characters (docs/engines.md Y4), recursion only when its settings give it
// levels (Y12), its lorebook budget, which the always-sent entries stay
// outside of.
var Profile = render.Profile{
	Name: Name, Title: "Yumina", New: func() render.Engine { return New() },
	WordRune:           match.JSWordRune,
	WholeWordsNoSpaces: reason.YuminaNoSpaceWords,
	Recursion:          render.RecursionOptIn, Budget: render.BudgetOwn, AlwaysSent: render.AlwaysOutsideBudget,
	Reads: render.EntryFields,
}

// Profile is Yumina's Profile.
func (*Engine) Profile() *render.Profile { return &Profile }

// lorebookBudget is the tokens Yumina's matched entries share, and how that
// number was reached.
func lorebookBudget(in *render.Input) *render.EntryBudget {
	then := reason.Reason{Code: reason.YuminaBudgetOverflow}
	s, _, err := settingsOf(in)
	if err != nil {
		return &render.EntryBudget{Says: reason.Reason{Code: reason.YuminaBudgetInvalid}, Then: then}
	}
	return &render.EntryBudget{Tokens: s.budget(), Then: then, Says: reason.Reason{Code: reason.YuminaBudget,
		Params: reason.Params{reason.P("tokens", s.budget()), reason.P("percent", s.budgetPercent),
			reason.P("maxContext", s.maxContext), reason.P("from", s.from["maxContext"]), reason.P("cap", s.budgetCap)}}}
}
