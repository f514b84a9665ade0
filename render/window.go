package render

import (
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// WindowForShare is SPEC §4's trigger scan window for a story-card share in
// tokens: 4 messages, or floor(share/100) when the share is over 500 tokens
// (499 → 4, 500 → 4, 501 → 5, 900 → 9).
func WindowForShare(cardsShare int) int {
	if cardsShare > 500 {
		return cardsShare / 100
	}
	return 4
}

// ScanWindow computes the trigger scan window before keyword activation: from
// the always-sent pieces pre (Assemble with no keyword activation) it takes
// the Required total under the cap, the Dynamic remainder R, and the cards'
// share of R.
func ScanWindow(pre []Piece, s schema.Settings, c tokenize.Counter) int {
	// Only Required is weighed: history, which may be 20,000 messages, is
	// not counted (SentOnly leaves it to the history pass, which never runs).
	b := newBudgeter(pre, s, c, BudgetOptions{SentOnly: true})
	b.required()
	return WindowForShare(floorShare(s.Shares.Cards, b.remainder()))
}

// RequiredSize is what the Required pieces among pre would take before the
// cap (markers included) and the cap itself: lint's required-over-cap compares
// them.
func RequiredSize(pre []Piece, s schema.Settings, c tokenize.Counter) (total, capTokens int) {
	b := newBudgeter(pre, s, c, BudgetOptions{SentOnly: true}) // Required only: history is not counted
	for _, g := range append([]string{"", budgetLastAction, budgetFrontMemory}, requiredPriority...) {
		for _, i := range b.bySection[g] {
			total += b.st[i].tokens
		}
	}
	return total, b.capTokens
}

// FloorShare is floor(share × n) as the budget computes it (with its
// tolerance for shares written in decimal).
func FloorShare(share float64, n int) int { return floorShare(share, n) }

// Sizing measures what a lorebook always sends, without a transcript: the
// Required pieces against the cap, the Dynamic remainder they leave, the story
// cards' share of it, and every card's size against that share. `lore tokens`
// without --transcript prints it; lint's required-over-cap and
// entry-over-budget rules read it.
type Sizing struct {
	// Report is the budget of the always-sent pieces (no chat: history and
	// memory are empty; constant cards compete for the cards share).
	Report *Report
	// RequiredTotal is the whole size of the always-sent Required pieces,
	// markers included, before the cap; RequiredCap is floor(cap × available).
	// RequiredTotal > RequiredCap is lint's required-over-cap.
	RequiredTotal int
	RequiredCap   int
	// Remainder is R = available − Required used (under the cap), CardsShare
	// floor(shares.cards × R), Window the trigger scan window it gives.
	Remainder  int
	CardsShare int
	Window     int
	// Cards lists every enabled chat-history entry (greetings aside: they
	// open the chat, they are not cards) in lorebook order with its
	// size after macros; Over marks one larger than the whole cards share —
	// it can never be included (lint's entry-over-budget).
	Cards []CardSize
	// Limits are the bounds the sizing ran into (Result.Limits).
	Limits []string
}

// CardSize is one story card's size.
type CardSize struct {
	Entry  *schema.Entry
	Tokens int
	Over   bool
}
