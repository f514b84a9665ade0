package reason

import (
	"fmt"
	"strings"
)

// What the sillytavern engine says (engine/sillytavern), in SillyTavern's
// words: its World Info fields by their names, as the file the book was
// read from spells them where the sentence names the field (field, value).
const (
	// The gates of SillyTavern's scan that keep an entry out, in its order.
	// Any of them may carry pass, passKind ("recursion", "min-activations")
	// and passScanDepth: the scan pass after the first that met it.
	STDisabled         Code = "sillytavern.disabled"          // params field, value
	STCharacterFilter  Code = "sillytavern.character-filter"  // params mode, what, list, character, tags
	STTriggers         Code = "sillytavern.triggers"          // params triggers, type
	STDelay            Code = "sillytavern.delay"             // params delay, messages
	STCooldown         Code = "sillytavern.cooldown"          // params until, messages
	STCooldownBare     Code = "sillytavern.cooldown-bare"     //
	STDelayRecursion   Code = "sillytavern.delay-recursion"   // params level
	STDelayLevel       Code = "sillytavern.delay-level"       // params level, reached
	STExcludeRecursion Code = "sillytavern.exclude-recursion" //
	STDontActivate     Code = "sillytavern.dont-activate"     //
	STNoKeys           Code = "sillytavern.no-keys"           //
	// STNoKeyMatched: params depth, own (the entry's own scan depth),
	// messages (scanned), authorsNote, recursion (texts scanned besides),
	// inside (keys found only inside other words).
	STNoKeyMatched Code = "sillytavern.no-key-matched"
	// STSecondaryFails: params key (the primary that matched), then
	// SecondaryLogic's. STSecondaryUnknown: params key, logic (as written).
	STSecondaryFails   Code = "sillytavern.secondary-fails"
	STSecondaryUnknown Code = "sillytavern.secondary-unknown-logic"
	STGroupHeld        Code = "sillytavern.group-held"     // params group, holder
	STGroupPriority    Code = "sillytavern.group-priority" // params group, winner
	STGroupRolled      Code = "sillytavern.group-rolled"   // params group, winner, roll, total
	STGroupSticky      Code = "sillytavern.group-sticky"   // params group, winner
	STGroupScored      Code = "sillytavern.group-scored"   // params group, winner, score, best
	STProbabilityRoll  Code = "sillytavern.probability-roll"
	STBudgetOver       Code = "sillytavern.budget-over" // params total, budget
	STBudgetFull       Code = "sillytavern.budget-full" // params budget, at
	STStopped          Code = "sillytavern.stopped"     // params passes, max
	STNotEvaluated     Code = "sillytavern.not-evaluated"

	// What it did with an entry it activated.
	STActivatedConstant  Code = "sillytavern.activated-constant" // params inPass (0: the first pass)
	STActivatedDecorator Code = "sillytavern.activated-decorator"
	STActivatedSticky    Code = "sillytavern.activated-sticky"
	STActivatedExternal  Code = "sillytavern.activated-external" // forceActivate
	STActivatedKey       Code = "sillytavern.activated-key"      // + key, in
	STProbabilityPassed  Code = "sillytavern.probability-passed"
	// STPlaced: params position (its name), or depth and role.
	STPlaced            Code = "sillytavern.placed"
	STEmptyAfterMacros  Code = "sillytavern.empty-after-macros"
	STAuthorsNoteUnsent Code = "sillytavern.authors-note-unsent"
	STNoInsertionPoint  Code = "sillytavern.no-insertion-point" // params position
	STOutletUnnamed     Code = "sillytavern.outlet-unnamed"
	STEffect            Code = "sillytavern.effect"     // params kind, end
	STCardField         Code = "sillytavern.card-field" // params field
	STGreetingOther     Code = "sillytavern.greeting-other"
	STGreeting          Code = "sillytavern.greeting"
	STGreetingKept      Code = "sillytavern.greeting-kept"

	// What it does with an entry whatever the chat (render.Fate).
	STPlaceCard      Code = "sillytavern.place-card" // params field
	STPlaceGreeting  Code = "sillytavern.place-greeting"
	STPlaceBefore    Code = "sillytavern.place-before-char"
	STPlaceAfter     Code = "sillytavern.place-after-char"
	STPlaceANTop     Code = "sillytavern.place-an-top"
	STPlaceANBottom  Code = "sillytavern.place-an-bottom"
	STPlaceEMTop     Code = "sillytavern.place-em-top"
	STPlaceEMBottom  Code = "sillytavern.place-em-bottom"
	STPlaceOutlet    Code = "sillytavern.place-outlet" // params name
	STNeverOutlet    Code = "sillytavern.never-outlet"
	STNeverDisabled  Code = "sillytavern.never-disabled" // params field, value
	STNeverDecorator Code = "sillytavern.never-dont-activate"
	STNeverRolls     Code = "sillytavern.never-rolls"
	STNeverNoKeys    Code = "sillytavern.never-no-keys" // params keys, constant (the fields' names)
	// STNeverUnscanned: params why ("scan-depth", "delay"), then
	// ("recursion-off", "excluded").
	STNeverUnscanned   Code = "sillytavern.never-unscanned"
	STNeverAuthorsNote Code = "sillytavern.never-authors-note"
	STNeverPosition    Code = "sillytavern.never-position" // params position

	// What lint assumes of SillyTavern's budget.
	STBudget         Code = "sillytavern.budget" // params tokens, percent, context, maxContext, contextTokens, responseReserve, cap
	STBudgetOverflow Code = "sillytavern.budget-overflow"
)

// passName says what a scan pass after the first one matched against.
func passName(p Params) string {
	if k, _ := p.Get("passKind"); k == "min-activations" {
		d, _ := p.Get("passScanDepth")
		return fmt.Sprintf("min activations, scan depth %v", d)
	}
	return "recursion"
}

// activated: "activated in pass 2: constant".
func activated(what func(a args) string) func(args) string {
	return func(a args) string {
		pass := ""
		if n := a.int("inPass"); n > 1 {
			pass = fmt.Sprintf(" in pass %d", n)
		}
		return "activated" + pass + ": " + what(a)
	}
}

// windowDetail says what an entry's keys were matched against.
func windowDetail(a args) string {
	own := ""
	if a.bool("own") {
		own = " (its own)"
	}
	d := a.num("depth")
	if !a.has("messages") {
		return fmt.Sprintf("(scan depth %s%s: nothing is scanned)", d, own)
	}
	var parts []string
	switch n := a.int("messages"); n {
	case 0:
		parts = append(parts, "no messages")
	case 1:
		parts = append(parts, "the newest message")
	default:
		parts = append(parts, fmt.Sprintf("the %d newest messages", n))
	}
	if a.bool("authorsNote") {
		parts = append(parts, "the Author's Note")
	}
	if a.bool("recursion") {
		parts = append(parts, "the recursion text")
	}
	return fmt.Sprintf("in %s (scan depth %s%s)", strings.Join(parts, ", "), d, own)
}

func stFieldSays(a args) string { return fmt.Sprintf("%s: %v", a.str("field"), a.v("value")) }

var sillyTavernSentences = map[Code]sentence{
	STDisabled: {func(a args) string { return "disabled (" + stFieldSays(a) + ")" }, Params{P("field", "disable"), P("value", true)}},
	STCharacterFilter: {func(a args) string {
		mode := "only for"
		if a.str("mode") == "not" {
			mode = "not for"
		}
		who := fmt.Sprintf("the character %q", a.str("character"))
		if a.str("what") == "tags" {
			who = "a character tagged " + strings.Join(a.strs("tags"), ", ")
			if len(a.strs("tags")) == 0 {
				who = "a character without tags"
			}
		}
		return fmt.Sprintf("character filter: %s %s %s; this is %s", mode, a.str("what"), strings.Join(a.strs("list"), ", "), who)
	}, Params{P("mode", "only"), P("what", "names"), P("list", []string{"Seraphina"}), P("character", "Nova"), P("tags", []string(nil))}},
	STTriggers: {func(a args) string {
		return fmt.Sprintf("triggers %s do not include this generation's type (%s)", strings.Join(a.strs("triggers"), ", "), a.str("type"))
	}, Params{P("triggers", []string{"swipe"}), P("type", "normal")}},
	STDelay: {func(a args) string {
		return fmt.Sprintf("delay %s: the chat has %d messages, fewer than %s", a.num("delay"), a.int("messages"), a.num("delay"))
	}, Params{P("delay", 4.0), P("messages", 2)}},
	STCooldown: {func(a args) string {
		return fmt.Sprintf("on cooldown until the chat has %s messages (it has %d)", a.num("until"), a.int("messages"))
	}, Params{P("until", 4.0), P("messages", 3)}},
	STCooldownBare: {fixed("on cooldown"), nil},
	STDelayRecursion: {func(a args) string {
		return fmt.Sprintf("delayUntilRecursion %s: it can only activate in a recursion pass", a.num("level"))
	}, Params{P("level", 1.0)}},
	STDelayLevel: {func(a args) string {
		return fmt.Sprintf("delayUntilRecursion level %s (this pass reaches level %s)", a.num("level"), a.num("reached"))
	}, Params{P("level", 2.0), P("reached", 1.0)}},
	STExcludeRecursion: {fixed("excludeRecursion: it is not matched against recursion passes"), nil},
	STDontActivate:     {fixed("@@dont_activate: its content starts with that decorator"), nil},
	STNoKeys:           {fixed("no primary keys, and it is not constant"), nil},
	STNoKeyMatched: {func(a args) string {
		s := "no primary key matched " + windowDetail(a)
		if keys := a.strs("inside"); len(keys) > 0 {
			q := make([]string, len(keys))
			for i, k := range keys {
				q[i] = fmt.Sprintf("%q", k)
			}
			s += fmt.Sprintf("; %s occurs only inside other words, and whole words are on (matchWholeWords)", strings.Join(q, ", "))
		}
		return s
	}, Params{P("depth", 2.0), P("own", false), P("messages", 2), P("authorsNote", false), P("recursion", false), P("inside", []string{"ship"})}},
	STSecondaryFails: {func(a args) string {
		return fmt.Sprintf("primary key %q matched, but %s", a.str("key"), secondaryLogic(a))
	}, Params{P("key", "tavern"), P("logic", "AND_ANY"), P("holds", false), P("in", "scanned-text"),
		P("matched", []string(nil)), P("missing", []string{"ale", "mead"})}},
	STSecondaryUnknown: {func(a args) string {
		return fmt.Sprintf("primary key %q matched, but the secondary keys do not satisfy the unknown logic %v", a.str("key"), a.v("logic"))
	}, Params{P("key", "tavern"), P("logic", 7.0)}},
	STGroupHeld: {func(a args) string {
		return fmt.Sprintf("inclusion group %q already has %s in the prompt", a.str("group"), a.str("holder"))
	}, Params{P("group", "inn"), P("holder", "inn-1")}},
	STGroupPriority: {func(a args) string {
		return fmt.Sprintf("inclusion group %q went to %s by prioritized", a.str("group"), a.str("winner"))
	}, Params{P("group", "inn"), P("winner", "inn-1")}},
	STGroupRolled: {func(a args) string {
		return fmt.Sprintf("inclusion group %q went to %s by the weighted roll (%.2f of %s)", a.str("group"), a.str("winner"), a.v("roll"), a.num("total"))
	}, Params{P("group", "inn"), P("winner", "inn-1"), P("roll", 37.5), P("total", 200.0)}},
	STGroupSticky: {func(a args) string {
		return fmt.Sprintf("inclusion group %q went to its sticky member %s", a.str("group"), a.str("winner"))
	}, Params{P("group", "inn"), P("winner", "inn-1")}},
	STGroupScored: {func(a args) string {
		return fmt.Sprintf("inclusion group %q went to %s by group scoring (%d key hits against %d)", a.str("group"), a.str("winner"), a.int("score"), a.int("best"))
	}, Params{P("group", "inn"), P("winner", "inn-1"), P("score", 1), P("best", 2)}},
	STProbabilityRoll: {func(a args) string {
		return fmt.Sprintf("probability %s%%: rolled %.2f, needed %s or less", a.num("probability"), a.v("roll"), a.num("probability"))
	}, Params{P("probability", 40.0), P("roll", 71.3)}},
	STBudgetOver: {func(a args) string {
		return fmt.Sprintf("left out by the budget: %d tokens with it, the budget is %d", a.int("total"), a.int("budget"))
	}, Params{P("total", 2100), P("budget", 2048)}},
	STBudgetFull: {func(a args) string {
		return fmt.Sprintf("left out by the budget: the budget (%d tokens) was already full at %s", a.int("budget"), a.str("at"))
	}, Params{P("budget", 2048), P("at", "big")}},
	STStopped: {func(a args) string {
		return fmt.Sprintf("the scan stopped after %d passes (maxRecursionSteps %s)", a.int("passes"), a.num("max"))
	}, Params{P("passes", 2), P("max", 2.0)}},
	STNotEvaluated: {fixed("not evaluated: the scan ended before it"), nil},

	STActivatedConstant:  {activated(func(args) string { return "constant" }), Params{P("inPass", 1)}},
	STActivatedDecorator: {activated(func(args) string { return "@@activate" }), Params{P("inPass", 1)}},
	STActivatedSticky: {activated(func(args) string { return "its sticky effect from an earlier generation keeps it in" }),
		Params{P("inPass", 1)}},
	STActivatedExternal: {activated(func(args) string {
		return "forced from outside the scan (settings.sillytavern.forceActivate, as Vector Storage's hits are)"
	}), Params{P("inPass", 1)}},
	STActivatedKey: {activated(func(a args) string { return fmt.Sprintf("key %q matched in %s", a.str("key"), a.str("in")) }),
		Params{P("inPass", 2), P("key", "tavern"), P("in", "message:3")}},
	STProbabilityPassed: {func(a args) string {
		return fmt.Sprintf("probability %s%%: rolled %.2f, passed", a.num("probability"), a.v("roll"))
	}, Params{P("probability", 40.0), P("roll", 12.5)}},
	STPlaced: {func(a args) string {
		where := a.str("position")
		if a.has("depth") {
			where = fmt.Sprintf("depth %d as %s", a.int("depth"), a.str("role"))
		}
		return fmt.Sprintf("placed at %s, order %s", where, a.num("order"))
	}, Params{P("position", "before-char"), P("order", 100.0)}},
	STEmptyAfterMacros:  {fixed("its content is empty after macros, so nothing is sent"), nil},
	STAuthorsNoteUnsent: {fixed("its place is the Author's Note, which is not sent in this generation (authorsNote.active: false)"), nil},
	STOutletUnnamed:     {fixed("an outlet entry without an outlet name: SillyTavern 1.18.0 skips it, so nothing is sent"), nil},
	STNoInsertionPoint: {func(a args) string {
		return fmt.Sprintf("SillyTavern has no insertion point for position %d, so nothing is sent", a.int("position"))
	}, Params{P("position", 9)}},
	STEffect: {func(a args) string {
		return fmt.Sprintf("%s from now until the chat has %s messages", a.str("kind"), a.num("end"))
	},
		Params{P("kind", "sticky"), P("end", 6.0)}},
	STCardField: {func(a args) string {
		return fmt.Sprintf("the character card's %s: SillyTavern sends it in its place in the prompt, not as world info", a.str("field"))
	}, Params{P("field", "description")}},
	STGreetingOther: {fixed("a greeting, but not the one SillyTavern opens a chat with (the card's first_mes, else the first greeting): it is not sent"), nil},
	STGreeting:      {fixed("the character's greeting: SillyTavern opens a new chat with it, so it is the chat's first message"), nil},
	STGreetingKept: {fixed("the character's greeting: SillyTavern opens a new chat with it, and the transcript already opens with the " +
		"character's message (where SillyTavern keeps the greeting), so it is not added again"), nil},

	STPlaceCard:     {func(a args) string { return "the character card's " + a.str("field") }, Params{P("field", "description")}},
	STPlaceGreeting: {fixed("the chat's first message (the character's greeting)"), nil},
	STPlaceBefore:   {fixed("before the character definitions (before-char)"), nil},
	STPlaceAfter:    {fixed("after the character definitions (after-char)"), nil},
	STPlaceANTop:    {fixed("above the Author's Note (an-top)"), nil},
	STPlaceANBottom: {fixed("below the Author's Note (an-bottom)"), nil},
	STPlaceEMTop:    {fixed("above the example messages (em-top)"), nil},
	STPlaceEMBottom: {fixed("below the example messages (em-bottom)"), nil},
	STPlaceOutlet: {func(a args) string {
		return "an outlet: sent only where {{outlet::" + a.str("name") + "}} stands in a prompt field"
	}, Params{P("name", "lore")}},
	STNeverDisabled:  {func(a args) string { return "it is disabled (" + stFieldSays(a) + ")" }, Params{P("field", "disable"), P("value", true)}},
	STNeverDecorator: {fixed("its @@dont_activate decorator keeps SillyTavern from activating it; remove the decorator"), nil},
	STNeverRolls:     {fixed("probability 0 with useProbability: its roll never passes; raise the probability or turn useProbability off"), nil},
	STNeverNoKeys: {func(a args) string {
		return fmt.Sprintf("SillyTavern skips an entry without keys unless it is constant; add %s or set %s: true", a.str("keys"), a.str("constant"))
	}, Params{P("keys", "keys"), P("constant", "constant")}},
	STNeverUnscanned: {func(a args) string {
		why := "scanDepth 0: SillyTavern scans no message for it"
		if a.str("why") == "delay" {
			why = "delayUntilRecursion: only other entries' content can activate it"
		}
		if a.str("then") == "excluded" {
			return why + ", and excludeRecursion keeps other entries' content from activating it"
		}
		return why + ", and recursion is off (recursive: false)"
	}, Params{P("why", "scan-depth"), P("then", "excluded")}},
	STNeverAuthorsNote: {fixed("it goes with the Author's Note, which is off (settings.sillytavern.authorsNote.active: false)"), nil},
	STNeverOutlet:      {fixed("an outlet entry without an outletName, or at SillyTavern 1.12.6, which has no outlets: it is activated and sent nowhere"), nil},
	STNeverPosition: {func(a args) string {
		return fmt.Sprintf("position %d is none of SillyTavern's: it is activated and sent nowhere; set a position from 0 to 7", a.int("position"))
	}, Params{P("position", 9)}},

	STBudget: {func(a args) string {
		from := "settings.sillytavern.maxContext"
		if !a.bool("maxContext") {
			from = fmt.Sprintf("lore's contextTokens %d − responseReserve %d", a.int("contextTokens"), a.int("responseReserve"))
		}
		s := fmt.Sprintf("SillyTavern's World Info budget of %d tokens (budget %g%% of a %g-token context, from %s",
			a.int("tokens"), a.v("percent"), a.v("context"), from)
		if c, _ := a.v("cap").(float64); c > 0 {
			s += fmt.Sprintf(", capped at budgetCap %g", c)
		}
		return s + ")"
	}, Params{P("tokens", 1536), P("percent", 25.0), P("context", 6144.0), P("maxContext", false), P("contextTokens", 8192),
		P("responseReserve", 2048), P("cap", 0.0)}},
	STBudgetOverflow: {fixed("so SillyTavern's budget overflows at it whenever it activates: it and every entry after it in Order are left out (unless ignoreBudget)"), nil},
}
