package lint

// checkEntryOverBudget reports story cards (enabled chat-history entries) larger
// than the whole story-card share: activation may pick them, but the budget never
// has room, so they are dropped from every prompt.
func checkEntryOverBudget(c *Context) {
	sz := c.sizing()
	for _, card := range sz.Cards {
		if !card.Over {
			continue
		}
		e := card.Entry
		c.Report(e, e.FieldPos("content"),
			"entry %q is %d tokens, more than the whole story-card share of %d tokens (%.0f%% of the %d tokens Required leaves), so it can never be included; shorten it or split it into several cards",
			e.ID, card.Tokens, sz.CardsShare, c.Settings.Shares.Cards*100, sz.Remainder)
	}
}
