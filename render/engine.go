package render

import (
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/schema"
)

// Engine turns a lorebook and a chat into the prompt one roleplay engine would
// send: it decides which entries activate, where each lands and what its budget
// keeps. Every engine fills the same Result, so every output format, --explain
// and the lint rules work with any engine.
type Engine interface {
	// Name is the engine's id, as --engine and settings.engine spell it
	// (its Profile's Name).
	Name() string
	// Render activates, places and budgets one prompt.
	Render(in *Input) (*Result, error)
}

// Profile is what an engine is, as data: what lint, the outputs, the
// registry (package engine) and the docs need to know of it without
// knowing it by name. Every engine has one (Profiled); a registered
// engine's Profile makes it (New).
type Profile struct {
	// Name is the engine's id (--engine, settings.engine); Title the tool's
	// name as people write it ("SillyTavern"), for messages.
	Name, Title string
	// New makes the engine.
	New func() Engine
	// Formats are the foreign formats whose books are written for this
	// engine: a book read from one renders and lints with it unless
	// --engine or settings.engine says otherwise.
	Formats []string
	// WordRune reports a character that continues a word where the engine
	// matches whole words (lint's keyword rules judge by it).
	WordRune func(rune) bool
	// WholeWordsNoSpaces, when set, is what matchWholeWords does to a
	// keyword written without spaces (lint's whole-word-cjk); "" when that
	// is no problem.
	WholeWordsNoSpaces reason.Code
	// Recursion is how entries' content activates other entries.
	Recursion RecursionModel
	// Budget is what a triggered entry competes for.
	Budget BudgetModel
	// AlwaysSent is what the entries it always sends take from that budget.
	AlwaysSent AlwaysSent
	// Reads are the entry fields the engine acts on (lore's names;
	// "extensions.sillytavern" for the fields a format kept); an entry's
	// other fields change nothing in what it sends.
	Reads []string
}

// EntryFields are the fields of lore's entry an engine can act on (tags,
// folders, lint directives and other tools' extensions are for tools):
// lore's and Yumina's engines read them all (Profile.Reads).
var EntryFields = []string{"id", "name", "content", "role", "apiRole", "section", "position", "enabled", "alwaysSend",
	"keywords", "matchWholeWords", "secondaryKeywords", "secondaryKeywordLogic", "conditions", "conditionLogic",
	"depth", "preventRecursion", "excludeRecursion"}

// RecursionModel is an engine's recursion model.
type RecursionModel string

const (
	// RecursionLevels: contents are scanned level by level, up to
	// settings.recursionLimit (lore's).
	RecursionLevels RecursionModel = "levels"
	// RecursionOptIn: off unless the engine's settings give it levels.
	RecursionOptIn RecursionModel = "opt-in"
	// RecursionPasses: scan passes until one activates nothing new, while
	// the engine's setting is on.
	RecursionPasses RecursionModel = "passes"
)

// BudgetModel is an engine's budget model.
type BudgetModel string

const (
	// BudgetShares: lore's context budget (SPEC §4): what is always sent is
	// Required, under a cap; triggered entries share the rest by section
	// (render's sizing measures it).
	BudgetShares BudgetModel = "shares"
	// BudgetOwn: the engine budgets triggered entries itself, a number of
	// tokens its settings decide (Description.Budget); no Required cap.
	BudgetOwn BudgetModel = "own"
)

// AlwaysSent is what an engine's always-sent entries take from its budget.
type AlwaysSent string

const (
	// AlwaysInBudget: they are counted (lore's Required part, SillyTavern's
	// constant entries).
	AlwaysInBudget AlwaysSent = "in-budget"
	// AlwaysOutsideBudget: they are sent whatever the budget (Yumina's).
	AlwaysOutsideBudget AlwaysSent = "outside-budget"
)

// Profiled is an engine that says what it is. Every engine lore ships is.
type Profiled interface {
	Profile() *Profile
}

// ProfileOf is eng's Profile, or one with its name alone.
func ProfileOf(eng Engine) *Profile {
	if p, ok := eng.(Profiled); ok {
		return p.Profile()
	}
	return &Profile{Name: eng.Name()}
}

// Says is how a message names the engine: its title, else "the NAME
// engine".
func (p *Profile) Says() string {
	if p.Title == "" {
		return "the " + p.Name + " engine"
	}
	return p.Title
}

// Sizer is an engine that can measure what a lorebook always sends, without a
// chat: `lore tokens` without --transcript prints it, lint's budget rules read
// it. An engine without it is sized by rendering an empty chat.
type Sizer interface {
	SizeUp(in *Input) *Sizing
}

// TurnRenderer is an engine whose prompts depend on the generations before
// them (SillyTavern's sticky, cooldown and delay, its random stream):
// RenderTurns renders one prompt per chat prefix, lengths[i] messages long, in
// order, carrying that state from each generation to the next.
type TurnRenderer interface {
	RenderTurns(in *Input, lengths []int) ([]*Result, error)
}

// RenderTurns renders one prompt per chat prefix of in's transcript, lengths[i]
// messages long, in order: with the engine's own RenderTurns when it carries
// state between generations, else each prefix on its own.
func RenderTurns(eng Engine, in *Input, lengths []int) ([]*Result, error) {
	if err := checkLengths(in, lengths); err != nil {
		return nil, err
	}
	if tr, ok := eng.(TurnRenderer); ok {
		return tr.RenderTurns(in, lengths)
	}
	out := make([]*Result, 0, len(lengths))
	for _, l := range lengths {
		local := *in
		t := schema.Transcript{}
		if in.Transcript != nil {
			t = *in.Transcript
		}
		t.Messages = t.Messages[:l:l]
		local.Transcript = &t
		res, err := eng.Render(&local)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	return out, nil
}

// Describer is an engine that can say, without a chat, what it does with each
// entry and what it assumes of the book: lint judges by it, so that a
// finding about reachability, placement, recursion or the budget is about
// the engine the creator uses (unreachable-entry, engine-divergence,
// entry-over-budget, recursion-loop).
type Describer interface {
	// Describe says it for in.Book. Only the book, its settings and the
	// engine's settings matter: not the chat, nor the variables' values.
	Describe(in *Input) *Description
}

// Description is what an engine does with a lorebook, whatever the chat.
type Description struct {
	// Fates has one Fate per entry of the book, in order.
	Fates []Fate
	// Recursive says entries' content activates other entries, with the
	// book's settings.
	Recursive bool
	// Budget is the room one triggered entry competes for, for an engine
	// that budgets them itself (Profile.Budget BudgetOwn); nil otherwise.
	Budget *EntryBudget
	// WholeWords, when set, says whether the engine matches a keyword of an
	// entry as a whole word, and whether the entry itself asks for it
	// (rather than a global setting); nil is the entry's matchWholeWords.
	WholeWords func(e *schema.Entry, kw string) (whole, own bool)
	// Chances, when set, says what may leave out an entry (index i) the
	// engine has activated: the probability it is sent with (100 when it
	// is not rolled) and the inclusion groups it is in, of which the engine
	// sends one entry each; nil when nothing but the budget does.
	Chances func(e *schema.Entry, i int) (probability float64, groups []string)
}

// EntryBudget is the room one triggered entry competes for: its tokens,
// how that number was reached, and what an entry larger than it meets.
type EntryBudget struct {
	Tokens int
	Says   reason.Reason
	Then   reason.Reason
}

// Fate is what an engine does with one entry, whatever the chat.
type Fate struct {
	// Activation is how the entry can get in: "always" (whenever its
	// conditions hold), "keywords", "conditions" (its conditions alone),
	// "recursion" (only another entry's content can bring it in), or "never".
	Activation string
	// Placement is where it lands when it gets in (a place code:
	// reason.PlaceTriggered…); no code when it never lands anywhere.
	Placement reason.Reason
	// Never, when the entry can never be sent — not activated, or activated
	// and then sent nowhere — says why and what to do, in the words of the
	// engine's own documentation, at the field that causes it; no code
	// otherwise.
	Never reason.Reason
}

// Sent says the entry can be sent.
func (f Fate) Sent() bool { return f.Never.Code == "" }

// Never is the Fate of an entry that can never be sent, for r.
func Never(r reason.Reason) Fate { return Fate{Activation: "never", Never: r} }

// HistoryPlace is a place in the chat history for a Fate: after messages
// come after the entry; depth is the one it came from, role the message
// role it gets ("" for none).
func HistoryPlace(after, depth int, role string, params ...reason.Param) reason.Reason {
	ps := []reason.Param{reason.P("after", after), reason.P("depth", depth)}
	if role != "" {
		ps = append(ps, reason.P("role", role))
	}
	return reason.Reason{Code: reason.PlaceHistory, Field: "depth", Params: append(ps, params...)}
}
