package render

import (
	"fmt"

	"github.com/lorekit/lore/schema"
)

// Engine turns a lorebook and a chat into the prompt one roleplay engine would
// send: it decides which entries activate, where each lands and what its budget
// keeps. Every engine fills the same Result, so every output format, --explain
// and the lint rules work with any engine.
type Engine interface {
	// Name is the engine's id, as --engine and settings.engine spell it.
	Name() string
	// Render activates, places and budgets one prompt.
	Render(in *Input) (*Result, error)
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
// entry: whether anything can bring it in, and where it lands when something
// does. lint asks it, so that a finding about reachability or placement is
// about the engine the creator uses (unreachable-entry, engine-divergence).
type Describer interface {
	// Describe returns one Fate per entry of in.Book, in order. Only the
	// book, its settings and the engine's settings matter: not the chat, nor
	// the variables' values.
	Describe(in *Input) []Fate
}

// Fate is what an engine does with one entry, whatever the chat.
type Fate struct {
	// Activation is how the entry can get in: "always" (whenever its
	// conditions hold), "keywords", "conditions" (its conditions alone),
	// "recursion" (only another entry's content can bring it in), or "never".
	Activation string
	// Placement says where it lands when it gets in, as a phrase ("system
	// presets (step 1)", "before the newest message"); "" when it never
	// lands anywhere.
	Placement string
	// Never, when the entry can never be sent — not activated, or activated
	// and then sent nowhere — says why and what to do, in the words of the
	// engine's own documentation.
	Never string
}

// HistoryPlace phrases a place in the chat history for a Fate: the messages
// that come after the entry ("after the newest message", "just before the
// newest message", "with 3 messages after it"), then the depth it came from
// and a note ("depth 4, Yumina's default").
func HistoryPlace(after int, depth string) string {
	var where string
	switch after {
	case 0:
		where = "after the newest message"
	case 1:
		where = "just before the newest message"
	default:
		where = fmt.Sprintf("with %d messages after it", after)
	}
	return "the chat history, " + where + " (" + depth + ")"
}
