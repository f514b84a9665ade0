package sillytavern

import (
	"fmt"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Describe says what SillyTavern does with each entry, whatever the chat
// (render.Describer), in SillyTavern's words: lint reports what it can never
// send and, with engine-divergence, where it places an entry otherwise than
// lore. Invalid settings.sillytavern (render reports them) count as the
// shipped defaults.
func (*Engine) Describe(in *render.Input) []render.Fate {
	fates, _ := LintView(in)
	return fates
}

// LintView is what lint needs of a lorebook judged by SillyTavern, reading
// each entry's SillyTavern fields once: every entry's Fate (Describe), and
// whether SillyTavern matches a keyword of an entry as a whole word — the
// entry's matchWholeWords, else the global setting; never for a key with a
// space, which it looks for as text — and whether the entry itself says so
// (not the global default). Invalid settings.sillytavern (render reports
// them) count as the shipped defaults.
func LintView(in *render.Input) ([]render.Fate, func(e *schema.Entry, kw string) (whole, own bool)) {
	s, err := settingsOf(in)
	if err != nil {
		s = DefaultSettings()
	}
	type words struct{ whole, own bool }
	ww := make(map[*schema.Entry]words, len(in.Book.Entries))
	out := make([]render.Fate, len(in.Book.Entries))
	for i, x := range readEntries(in.Book) {
		if x == nil {
			continue
		}
		e := x.src
		w := words{whole: s.MatchWholeWords}
		if x.matchWholeWords != nil {
			w = words{whole: *x.matchWholeWords, own: true}
		}
		ww[e] = w
		switch {
		case formats.CardField(e) != "":
			out[i] = render.Fate{Activation: "always", Placement: "the character card's " + formats.CardField(e)}
		case e.Role == "greeting":
			out[i] = render.Fate{Activation: "always", Placement: "the chat's first message (the character's greeting)"}
		default:
			out[i] = x.fate(&s)
		}
	}
	whole := func(e *schema.Entry, kw string) (bool, bool) {
		w, ok := ww[e]
		if !ok {
			w = words{whole: s.MatchWholeWords}
		}
		return w.whole && !hasJSSpace(kw), w.own
	}
	return out, whole
}

func (e *entry) fate(s *Settings) render.Fate {
	never := func(why string) render.Fate { return render.Fate{Activation: "never", Never: why} }
	var f render.Fate
	scanDepth := s.ScanDepth
	if e.scanDepth != nil {
		scanDepth = *e.scanDepth
	}
	switch {
	case e.disable:
		return never("it is disabled (disable: true)")
	case e.hasDecorator("@@activate"):
		f.Activation = "always"
	case e.hasDecorator("@@dont_activate"):
		return never("its @@dont_activate decorator keeps SillyTavern from activating it; remove the decorator")
	case e.useProbability && !e.probabilityIs100 && e.probability <= 0:
		return never("probability 0 with useProbability: its roll never passes; raise the probability or turn useProbability off")
	case e.constant:
		f.Activation = "always"
	case (!e.keysArray || !anyKey(e.keys)) && e.vectorized:
		f.Activation = "keywords" // Vector Storage activates it by meaning
	case !e.keysArray || !anyKey(e.keys):
		return never("SillyTavern skips an entry without keys unless it is constant; add keys or set constant: true")
	case scanDepth <= 0 || e.delayLevel != 0:
		why := "scanDepth 0: SillyTavern scans no message for it"
		if e.delayLevel != 0 {
			why = "delayUntilRecursion: only other entries' content can activate it"
		}
		switch {
		case !s.Recursive:
			return never(why + ", and recursion is off (recursive: false)")
		case e.excludeRecursion:
			return never(why + ", and excludeRecursion keeps other entries' content from activating it")
		}
		f.Activation = "recursion"
	default:
		f.Activation = "keywords"
	}
	f.Placement, f.Never = e.placement(s)
	if f.Never != "" {
		f.Activation = "never"
	}
	return f
}

func anyKey(keys []string) bool {
	for _, k := range keys {
		if k != "" {
			return true
		}
	}
	return false
}

// placement is where SillyTavern puts an activated entry, or why nowhere.
func (e *entry) placement(s *Settings) (string, string) {
	switch e.position {
	case posBefore:
		return "before the character definitions (before-char)", ""
	case posAfter:
		return "after the character definitions (after-char)", ""
	case posANTop, posANBottom:
		if !s.AuthorsNote.Active {
			return "", "it goes with the Author's Note, which is off (settings.sillytavern.authorsNote.active: false)"
		}
		if e.position == posANTop {
			return "above the Author's Note (an-top)", ""
		}
		return "below the Author's Note (an-bottom)", ""
	case posDepth:
		d := defaultDepth
		if n, ok := e.depth.(float64); ok {
			d = int(n)
		}
		role := "system"
		if r, ok := e.role.(float64); ok && r >= 0 && int(r) < len(roleNames) {
			role = roleNames[int(r)]
		}
		return render.HistoryPlace(max(d, 0), fmt.Sprintf("depth %d, role %s", d, role)), ""
	case posEMTop:
		return "above the example messages (em-top)", ""
	case posEMBottom:
		return "below the example messages (em-bottom)", ""
	case posOutlet:
		return "an outlet: sent only where {{outlet::" + e.outletName + "}} stands in a prompt field", ""
	}
	return "", fmt.Sprintf("position %d is none of SillyTavern's: it is activated and sent nowhere; set a position from 0 to 7", e.position)
}

// What lint needs to judge a lorebook by SillyTavern (lint's engine
// profile): word characters, whole words, recursion, the budget.

// WordRune reports a character SillyTavern's whole-word match (JavaScript's
// \W without the u flag) counts as part of a word: an ASCII letter, digit or
// underscore.
func WordRune(r rune) bool { return match.JSWordRune(r) }

// Recursive says whether entries' content activates other entries.
func Recursive(in *render.Input) bool {
	s, err := settingsOf(in)
	return err != nil || s.Recursive
}

// WorldInfoBudget is the tokens World Info may take, and a phrase saying how
// that number was reached.
func WorldInfoBudget(in *render.Input) (int, string) {
	s, err := settingsOf(in)
	if err != nil {
		s = DefaultSettings()
	}
	ctx, from := s.MaxContext, "settings.sillytavern.maxContext"
	if ctx == 0 {
		ctx, from = float64(in.Settings.Available()), fmt.Sprintf("lore's contextTokens %d − responseReserve %d", in.Settings.ContextTokens, in.Settings.ResponseReserve)
	}
	b := budgetOf(&s, ctx)
	says := fmt.Sprintf("SillyTavern's World Info budget of %d tokens (budget %g%% of a %g-token context, from %s", b, s.Budget, ctx, from)
	if s.BudgetCap > 0 {
		says += fmt.Sprintf(", capped at budgetCap %g", s.BudgetCap)
	}
	return b, says + ")"
}
