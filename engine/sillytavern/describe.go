package sillytavern

import (
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Profile is SillyTavern's World Info as data (render.Profile):
// JavaScript's \w for whole words, recursion by passes while `recursive` is
// on, its World Info budget (a share of the context), constant entries
// included. The books of SillyTavern and of character cards are written for
// it.
var Profile = render.Profile{
	Name: Name, Title: "SillyTavern", New: func() render.Engine { return New() },
	Formats:   []string{formats.FormatSillyTavern, formats.FormatCardV2, formats.FormatCardV3, formats.FormatLorebookV3},
	WordRune:  match.JSWordRune,
	Recursion: render.RecursionPasses, Budget: render.BudgetOwn, AlwaysSent: render.AlwaysInBudget,
	Reads: []string{"id", "name", "content", "role", "apiRole", "section", "position", "enabled", "alwaysSend",
		"keywords", "matchWholeWords", "secondaryKeywords", "secondaryKeywordLogic", "depth", "preventRecursion",
		"excludeRecursion", "extensions." + formats.FormatSillyTavern, "extensions." + formats.FormatCardV3,
		"extensions." + formats.FormatCardV2, "extensions." + formats.FormatLorebookV3},
}

// Profile is SillyTavern's Profile.
func (*Engine) Profile() *render.Profile { return &Profile }

// Describe says what SillyTavern does with each entry, whatever the chat
// (render.Describer), in SillyTavern's words, reading each entry's
// SillyTavern fields once: every entry's Fate; whether its recursion is on;
// its World Info budget; what may leave out an entry it activated (its
// probability, its inclusion groups); and whether it matches a keyword of an
// entry as a whole word — the entry's matchWholeWords, else the global
// setting; never for a key with a space, which it looks for as text — and
// whether the entry itself says so (not the global default). Invalid
// settings.sillytavern (render reports them) count as the shipped defaults.
func (*Engine) Describe(in *render.Input) *render.Description {
	s, err := settingsOf(in)
	if err != nil {
		s = DefaultSettings()
	}
	type words struct{ whole, own bool }
	ww := make(map[*schema.Entry]words, len(in.Book.Entries))
	out := make([]render.Fate, len(in.Book.Entries))
	es := readEntries(in.Book)
	for i, x := range es {
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
			out[i] = render.Fate{Activation: "always", Placement: reason.Reason{Code: reason.STPlaceCard,
				Params: reason.Params{reason.P("field", formats.CardField(e))}}}
		case e.Role == "greeting":
			out[i] = render.Fate{Activation: "always", Placement: reason.Reason{Code: reason.STPlaceGreeting}}
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
	return &render.Description{Fates: out, Recursive: err != nil || s.Recursive, Budget: worldInfoBudget(in, &s), WholeWords: whole,
		Chances: chances(es)}
}

func (e *entry) fate(s *Settings) render.Fate {
	var f render.Fate
	scanDepth := s.ScanDepth
	if e.scanDepth != nil {
		scanDepth = *e.scanDepth
	}
	switch {
	case e.disable:
		return render.Never(e.says(reason.STNeverDisabled, "disable"))
	case e.hasDecorator("@@activate"):
		f.Activation = "always"
	case e.hasDecorator("@@dont_activate"):
		return render.Never(e.about(reason.STNeverDecorator, "content"))
	case e.useProbability && !e.probabilityIs100 && e.probability <= 0:
		return render.Never(e.about(reason.STNeverRolls, "probability"))
	case e.constant:
		f.Activation = "always"
	case (!e.keysArray || !anyKey(e.keys)) && e.vectorized:
		f.Activation = "keywords" // Vector Storage activates it by meaning
	case !e.keysArray || !anyKey(e.keys):
		keys := "keys"
		if e.st.Field("key").Name == "keywords" {
			keys = "keywords"
		}
		return render.Never(e.about(reason.STNeverNoKeys, "key", reason.P("keys", keys), reason.P("constant", e.st.Field("constant").Name)))
	case scanDepth <= 0 || e.delayLevel != 0:
		why, field := "scan-depth", "scanDepth"
		if e.delayLevel != 0 {
			why, field = "delay", "delayUntilRecursion"
		}
		switch {
		case !s.Recursive:
			return render.Never(e.about(reason.STNeverUnscanned, field, reason.P("why", why), reason.P("then", "recursion-off")))
		case e.excludeRecursion:
			return render.Never(e.about(reason.STNeverUnscanned, field, reason.P("why", why), reason.P("then", "excluded")))
		}
		f.Activation = "recursion"
	default:
		f.Activation = "keywords"
	}
	f.Placement, f.Never = e.placement(s)
	if !f.Sent() {
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
func (e *entry) placement(s *Settings) (place, never reason.Reason) {
	at := func(code reason.Code, params ...reason.Param) reason.Reason {
		return e.about(code, "position", params...)
	}
	switch e.position {
	case posBefore:
		return at(reason.STPlaceBefore), never
	case posAfter:
		return at(reason.STPlaceAfter), never
	case posANTop, posANBottom:
		if !s.AuthorsNote.Active {
			return place, at(reason.STNeverAuthorsNote)
		}
		if e.position == posANTop {
			return at(reason.STPlaceANTop), never
		}
		return at(reason.STPlaceANBottom), never
	case posDepth:
		d := defaultDepth
		if n, ok := e.depth.(float64); ok {
			d = int(n)
		}
		role := "system"
		if r, ok := e.role.(float64); ok && r >= 0 && int(r) < len(roleNames) {
			role = roleNames[int(r)]
		}
		r := render.HistoryPlace(max(d, 0), d, role)
		f := e.st.Field("depth")
		r.Field, r.Pos = f.Name, f.Pos
		return r, never
	case posEMTop:
		return at(reason.STPlaceEMTop), never
	case posEMBottom:
		return at(reason.STPlaceEMBottom), never
	case posOutlet:
		if !s.v118() || e.outletName == "" { // 1.12.6 has no outlets; 1.18.0 skips a nameless one
			return place, at(reason.STNeverOutlet)
		}
		return at(reason.STPlaceOutlet, reason.P("name", e.outletName)), never
	}
	return place, at(reason.STNeverPosition, reason.P("position", e.position))
}

// worldInfoBudget is the tokens World Info may take, and how that number
// was reached.
func worldInfoBudget(in *render.Input, s *Settings) *render.EntryBudget {
	ctx, fromMax := s.MaxContext, true
	if ctx == 0 {
		ctx, fromMax = float64(in.Settings.Available()), false
	}
	b := budgetOf(s, ctx)
	return &render.EntryBudget{Tokens: b, Then: reason.Reason{Code: reason.STBudgetOverflow},
		Says: reason.Reason{Code: reason.STBudget, Params: reason.Params{reason.P("tokens", b), reason.P("percent", s.Budget),
			reason.P("context", ctx), reason.P("maxContext", fromMax), reason.P("contextTokens", in.Settings.ContextTokens),
			reason.P("responseReserve", in.Settings.ResponseReserve), reason.P("cap", s.BudgetCap)}}}
}
