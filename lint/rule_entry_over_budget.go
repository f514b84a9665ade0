package lint

// checkEntryOverBudget reports story cards (enabled chat-history entries) larger
// than the whole budget a card competes for: activation may pick them, but the
// budget never has room, so they are dropped from every prompt. The message says
// the context it assumed and where that came from (a default nobody chose is
// named as such). Entries that can never be sent anyway are left to
// unreachable-entry.
func checkEntryOverBudget(c *Context) {
	if c.noRoom() {
		return // the schema error on the settings says it all
	}
	if c.Engine.CardBudget == nil && !c.measured() {
		return // lore's budget, and nothing to measure it with
	}
	if c.Engine.CardBudget == nil && c.fitsByBytes() {
		return
	}
	budget := c.cardBudget()
	for _, card := range c.cardsOver(budget.Tokens) {
		e := card.Entry
		if c.neverSent(e) || c.rejectedField(e, "section", "alwaysSend", "enabled") {
			continue
		}
		if f, ok := c.fate(c.index(e)); ok && f.Activation == "always" && c.Engine.AlwaysOutsideBudget {
			continue // the engine sends it outside the budget
		}
		then := budget.Then
		if then == "" {
			then = "so it can never be included"
		}
		c.Report(e, e.FieldPos("content"),
			"entry %s is %d tokens, more than %s, %s; shorten it or split it into several entries",
			entryName(e), card.Tokens, budget.Says, then)
	}
}
