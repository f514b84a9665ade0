package yumina

import (
	"fmt"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/render"
)

// What lint needs to judge a lorebook by Yumina's engine (lint's engine
// profile): its word characters, its recursion and its lorebook budget.

// WordRune reports a character JavaScript's \b counts as part of a word: an
// ASCII letter, digit or underscore (docs/engines.md Y4).
func WordRune(r rune) bool { return match.JSWordRune(r) }

// RecursionLevels is how many recursion levels Yumina scans for the
// lorebook (0: contents activate nothing; docs/engines.md Y12).
func RecursionLevels(in *render.Input) int {
	s, _, err := settingsOf(in)
	if err != nil {
		return 0
	}
	return s.recursion
}

// LorebookBudget is the tokens Yumina's matched entries share, and a phrase
// saying how that number was reached.
func LorebookBudget(in *render.Input) (int, string) {
	s, _, err := settingsOf(in)
	if err != nil {
		return 0, "Yumina's lorebook budget (its settings are invalid: lore render --engine yumina says why)"
	}
	says := fmt.Sprintf("Yumina's lorebook budget of %d tokens (lorebookBudgetPercent %g%% of maxContext %d, from %s",
		s.budget(), s.budgetPercent, s.maxContext, s.from["maxContext"])
	if s.budgetCap > 0 {
		says += fmt.Sprintf(", capped at lorebookBudgetCap %d", s.budgetCap)
	}
	return s.budget(), says + ")"
}
