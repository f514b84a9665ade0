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
	b := newBudgeter(pre, s, c)
	b.required()
	return WindowForShare(floorShare(s.Shares.Cards, b.remainder()))
}
