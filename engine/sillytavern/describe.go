package sillytavern

import (
	"fmt"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
)

// Describe says what SillyTavern does with each entry, whatever the chat
// (render.Describer): how it can get in, where it lands, and why it never
// can when it never can, in the terms of docs/engines.md's SillyTavern
// section. lint asks it to judge a book by SillyTavern.
func (*Engine) Describe(in *render.Input) []render.Fate {
	out := make([]render.Fate, len(in.Book.Entries))
	s, err := ParseSettings(in.EngineSettings)
	if err != nil {
		s = DefaultSettings()
	}
	index := map[any]int{}
	for i, e := range in.Book.Entries {
		index[e] = i
		if f := formats.CardField(e); f != "" {
			out[i] = cardFate(f)
		}
	}
	char := s.CharacterName
	if char == "" {
		char = in.Book.Manifest.Character
	}
	for _, e := range loadEntries(in.Book) {
		out[index[e.src]] = e.fate(&s, char)
	}
	return out
}

func cardFate(field string) render.Fate {
	place := map[string]string{
		"system_prompt": "the main prompt (step 1)", "description": "the character description (step 1)",
		"personality": "the character's personality (step 1)", "scenario": "the scenario (step 1)",
		"mes_example": "the example messages (step 4)", "post_history_instructions": "the post-history instructions (step 13)",
	}[field]
	if place == "" {
		return render.Fate{Activation: "always", Placement: "the character card's " + field + ", not world info"}
	}
	return render.Fate{Activation: "always", Placement: place}
}

// fate is what SillyTavern does with one world-info entry; char is the
// character's name when the settings or the card say it.
func (e *entry) fate(s *Settings, char string) render.Fate {
	never := func(activation, why string) render.Fate {
		return render.Fate{Activation: activation, Never: why}
	}
	var f render.Fate
	switch {
	case e.disable:
		return never("never", "it is disabled (disable: true)")
	case e.hasDecorator("@@dont_activate") && !e.hasDecorator("@@activate"):
		return never("never", "its content starts with @@dont_activate (docs/engines.md S12)")
	case len(e.filterNames) > 0 && char != "" && e.filterExclude == contains(e.filterNames, char):
		return never("never", fmt.Sprintf("its character filter leaves out %q, the character", char))
	case e.useProbability && !e.probabilityIs100 && !(e.probability > 0):
		return never("never", fmt.Sprintf("probability %v: the roll never lets it in (docs/engines.md S8)", e.probability))
	case e.constant || e.hasDecorator("@@activate"):
		f.Activation = "always"
	case !e.keysArray || len(e.keys) == 0:
		return never("never", "it has no keys and is not constant")
	case e.scanDepth != nil && !(*e.scanDepth > 0) && !s.Recursive:
		return never("never", "its scanDepth scans nothing and recursion is off")
	case e.delayLevel != 0:
		if !s.Recursive {
			return never("never", "delayUntilRecursion: only another entry's content can bring it in, and recursion is off (docs/engines.md S7)")
		}
		f.Activation = "recursion"
	default:
		f.Activation = "keywords"
	}
	if e.content == "" {
		f.Never = "its content is empty: SillyTavern activates it and sends nothing"
		return f
	}
	f.Placement, f.Never = e.place(s)
	return f
}

// place is where the entry lands, or why nowhere.
func (e *entry) place(s *Settings) (string, string) {
	switch e.position {
	case posBefore:
		return "world info before the character definitions (step 1)", ""
	case posAfter:
		return "world info after the character definitions (step 1)", ""
	case posANTop, posANBottom:
		if !s.AuthorsNote.Active {
			return "", "its place is the Author's Note, which is not sent (authorsNote.active: false)"
		}
		end := "top"
		if e.position == posANBottom {
			end = "bottom"
		}
		return render.HistoryPlace(int(s.AuthorsNote.Depth), fmt.Sprintf("the %s of the Author's Note, at depth %v", end, s.AuthorsNote.Depth)), ""
	case posDepth:
		d, r := number(e.depthOrDefault()), number(e.roleOrSystem())
		depth, ok := injectable(d)
		if !ok || r < 0 || r > 2 || r != float64(int(r)) {
			return "", fmt.Sprintf("SillyTavern injects whole depths from 0 to 1000 with role 0, 1 or 2, not depth %v role %v", d, r)
		}
		return render.HistoryPlace(depth, fmt.Sprintf("depth %d as %s", depth, roleNames[int(r)])), ""
	case posEMTop:
		return "before the example messages (step 4)", ""
	case posEMBottom:
		return "after the example messages (step 4)", ""
	case posOutlet:
		return "", "an outlet goes only where a prompt says {{outlet::" + e.outletName + "}}, which the default prompt does not (docs/engines.md)"
	}
	return "", fmt.Sprintf("SillyTavern has no insertion point %d", e.position)
}

// WordRune is SillyTavern's word character for whole words: an ASCII
// letter, digit or _ (JavaScript's \w); every other character is a
// boundary.
func WordRune(r rune) bool {
	return r < 0x80 && wordByte(byte(r))
}

// Budget is the tokens SillyTavern's World Info may take, and a phrase
// saying how that number was reached.
func Budget(in *render.Input) (int, string) {
	s, err := ParseSettings(in.EngineSettings)
	if err != nil {
		return 0, "SillyTavern's World Info budget (its settings are invalid: lore render --engine sillytavern says why)"
	}
	maxContext, from := s.MaxContext, "settings.sillytavern.maxContext"
	if maxContext == 0 {
		maxContext, from = float64(in.Settings.Available()), "contextTokens − responseReserve"
	}
	b := budgetOf(&s, maxContext)
	says := fmt.Sprintf("SillyTavern's World Info budget of %d tokens (budget %v%% of maxContext %v, from %s", b, s.Budget, maxContext, from)
	if s.BudgetCap > 0 && float64(b) == s.BudgetCap {
		says += fmt.Sprintf(", capped at budgetCap %v", s.BudgetCap)
	}
	return b, says + ")"
}
