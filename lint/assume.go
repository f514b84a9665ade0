package lint

import (
	"fmt"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"

	"github.com/lorekit/lore/match"
)

// Engine is everything the rules take for granted about the engine that will
// send the lorebook, in one place: the context size (and where that number came
// from), the budget a triggered entry competes for, and what ends a word. Rules
// read these fields and never decide them themselves. engineFor fills them
// from the engine the lint was given (Config.WithEngines): its render.Profile
// (word characters, budget and always-sent models) and its
// render.Description of the book (fates, recursion, budget, whole words), so
// no rule knows an engine by name.
type Engine struct {
	// Name is the engine the findings are about ("lore"); Says how messages
	// name it (its profile's title: "SillyTavern").
	Name, Says string
	// ContextFrom says where Settings.ContextTokens came from, for messages.
	ContextFrom settings.Source
	// CardBudget measures the tokens one triggered entry may take at most;
	// nil means lore's own budget (render's story-card share).
	CardBudget func(*Context) CardBudget
	// WordRune reports a character that continues a word, for the rules
	// that judge whether a keyword fires inside a word.
	WordRune func(rune) bool
	// Sizer is lore's engine, which sizes what a book always sends for the
	// rules that measure lore's budget; nil when the lint was not given it.
	Sizer render.Sizer

	// The rest is set for an engine other than lore's.
	//
	// Fates is the engine's own account of each entry (render.Describer), by
	// index in the book: unreachable-entry and keywords-ignored judge by it;
	// LoreFates is lore's, which engine-divergence compares it with.
	Fates, LoreFates []render.Fate
	// NoRequiredCap says the engine has no Required cap (required-over-cap
	// does not apply); NoRecursion that its contents activate nothing
	// (recursion-loop does not apply).
	NoRequiredCap, NoRecursion bool
	// WholeWordsNoSpaces, when set, is what matchWholeWords does to a
	// keyword written without spaces in this engine (whole-word-cjk).
	WholeWordsNoSpaces reason.Code
	// WholeWords, when set, says whether the engine matches a keyword of an
	// entry as a whole word, and whether the entry itself asks for it (rather
	// than a global setting); nil is lore's: the entry's matchWholeWords.
	WholeWords func(e *schema.Entry, kw string) (whole, own bool)
	// AlwaysOutsideBudget says entries the engine always sends take nothing
	// from the budget an entry competes for (Yumina's; SillyTavern budgets its
	// constant entries too).
	AlwaysOutsideBudget bool
	// Chances, when set, says what may leave out an entry (index i) the
	// engine activated: the probability it is sent with (100: every time)
	// and the inclusion groups it is in, each of which sends one entry. nil:
	// the engine sends every activated entry (lore's).
	Chances func(e *schema.Entry, i int) (probability float64, groups []string)
}

// CardBudget is the room one triggered entry competes for, with the words a
// message uses for it ("the whole story-card share of 1594 tokens (25% of the
// 6376 tokens Required leaves)").
type CardBudget struct {
	Tokens int
	Says   string
	// Then is what follows for an entry larger than the budget ("" is lore's:
	// it can never be included).
	Then string
}

// loreEngine is lore's own engine (render), with the context size from where it
// came from.
func loreEngine(from settings.Source) Engine {
	return Engine{Name: "lore", Says: "lore", ContextFrom: from, WordRune: match.IsWordRune}
}

// contextSays names the context size the budget rules assumed and where it came
// from, so a finding measured against a default nobody chose says so.
func (c *Context) contextSays() string {
	n := c.Settings.ContextTokens
	switch from := c.Engine.ContextFrom; from.Kind {
	case settings.Manifest:
		return fmt.Sprintf("the context of %d tokens set in the manifest", n)
	case settings.FromFile:
		return fmt.Sprintf("the context of %d tokens set in .lore.yaml", n)
	case settings.Flag, settings.Env:
		return fmt.Sprintf("the context of %d tokens given with %s", n, from.Name)
	}
	return fmt.Sprintf("lore's default context of %d tokens (the lorebook sets none: pass --context, or set contextTokens in .lore.yaml)", n)
}
