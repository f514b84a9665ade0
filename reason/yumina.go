package reason

import (
	"fmt"
	"strconv"
	"strings"
)

// What Yumina's engine says (engine/yumina), in the terms of
// docs/engines.md's Yumina table.
const (
	YuminaGreeting           Code = "yumina.greeting"
	YuminaDisabled           Code = "yumina.disabled"
	YuminaDisabledConditions Code = "yumina.disabled-conditions"
	// YuminaAlwaysSendUnset: params section.
	YuminaAlwaysSendUnset      Code = "yumina.always-send-unset"
	YuminaAlwaysSendConditions Code = "yumina.always-send-conditions"
	// YuminaConditionsHold and YuminaConditionsFail: params logic ("all",
	// "any"), conditions ([]JSCondition).
	YuminaConditionsHold Code = "yumina.conditions-hold"
	YuminaConditionsFail Code = "yumina.conditions-fail"
	YuminaNoWayIn        Code = "yumina.no-way-in"
	YuminaConditionsOnly Code = "yumina.conditions-only"
	// YuminaRegexAsText: params keyword, error.
	YuminaRegexAsText     Code = "yumina.regex-as-text"
	YuminaNothingScanned  Code = "yumina.nothing-scanned"
	YuminaNoMatch         Code = "yumina.no-match"         // params messages, scanDepth, from, recursion
	YuminaContentExcluded Code = "yumina.content-excluded" // params keyword, entry
	YuminaSecondaryFails  Code = "yumina.secondary-fails"  // params keyword, at or entry, excerpt, then SecondaryLogic's
	YuminaKeywordMatched  Code = "yumina.keyword-matched"  // params keyword, at or entry, excerpt, level
	YuminaBudgetStop      Code = "yumina.budget-stop"      // params budget, percent, maxContext, cap, score, needed, used
	YuminaBudgetAfter     Code = "yumina.budget-after"     // params budget, percent, maxContext, cap, stop, score
	YuminaExampleMatched  Code = "yumina.example-matched"  // a matched example entry: not sent
	YuminaNoDepth         Code = "yumina.no-depth"         // params defaultDepth
	YuminaExampleNoLines  Code = "yumina.example-no-lines" //
	YuminaExampleSent     Code = "yumina.example-sent"     //
	YuminaInserted        Code = "yumina.inserted"         // params depth, unset
	YuminaPostHistory     Code = "yumina.post-history"     //
	YuminaSystem          Code = "yumina.system"           //
	YuminaPlaceGreeting   Code = "yumina.place-greeting"   // Fate: the greeting's place
	YuminaNeverUnset      Code = "yumina.never-unset"      // Fate: alwaysSend unset, no way in
	YuminaNeverNoWayIn    Code = "yumina.never-no-way-in"  //
	YuminaNeverDisabled   Code = "yumina.never-disabled"   // disabled, with conditions
	YuminaNeverExample    Code = "yumina.never-example"    //
	YuminaNeverNoDepth    Code = "yumina.never-no-depth"   //
	YuminaBudget          Code = "yumina.budget"           // params tokens, percent, maxContext, from, cap
	YuminaBudgetInvalid   Code = "yumina.budget-invalid"   //
	YuminaBudgetOverflow  Code = "yumina.budget-overflow"  // what an entry larger than the budget meets
	YuminaNoSpaceWords    Code = "yumina.whole-words-cjk"  // what matchWholeWords does to a keyword without spaces
)

// JSCondition is one condition as Yumina evaluates it, for its conditions'
// reasons: the value and the variable's as JSON.stringify writes them.
type JSCondition struct {
	Variable string `json:"variable"`
	Operator string `json:"operator"`
	Value    string `json:"value"`
	Holds    bool   `json:"holds"`
	Set      bool   `json:"set"`
	Current  string `json:"current,omitempty"`
	// Note, when set, says why a comparison a creator might expect to hold
	// does not: "strict", "numbers-only", "string-in-string",
	// "list-or-string", "unknown-operator".
	Note string `json:"note,omitempty"`
}

var yuminaNotes = map[string]string{
	"strict":           "Yumina compares strictly: a number and a string never match",
	"string-in-string": "Yumina looks for a string only in a string",
	"list-or-string":   "contains needs a list or a string",
	"unknown-operator": "unknown operator",
}

func (c JSCondition) text() string {
	head := fmt.Sprintf("%s %s %s", c.Variable, c.Operator, c.Value)
	if !c.Set {
		return head + " is false (" + c.Variable + " is not set)"
	}
	verdict := "false"
	if c.Holds {
		verdict = "true"
	}
	s := fmt.Sprintf("%s is %s (%s is %s", head, verdict, c.Variable, c.Current)
	if note := yuminaNotes[c.Note]; note != "" {
		s += "; " + note
	} else if c.Note == "numbers-only" {
		s += "; Yumina compares only numbers with " + c.Operator
	}
	return s + ")"
}

func yuminaConditions(holds bool) func(args) string {
	return func(a args) string {
		cs, _ := a.v("conditions").([]JSCondition)
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = c.text()
		}
		verdict := "hold"
		if !holds {
			verdict = "do not hold"
		}
		return fmt.Sprintf("conditions %s (conditionLogic %s): %s", verdict, a.str("logic"), strings.Join(parts, "; "))
	}
}

var yuminaExample = Params{P("logic", "all"), P("conditions", []JSCondition{{Variable: "hp", Operator: "gt", Value: "3",
	Set: true, Current: `"5"`, Note: "numbers-only"}})}

// yuminaBudget: "Yumina's lorebook budget (2048 tokens, 25% of maxContext
// 8192, lorebookBudgetCap 1000)".
func yuminaBudget(a args) string {
	s := fmt.Sprintf("left out by Yumina's lorebook budget (%d tokens, %d%% of maxContext %d", a.int("budget"), a.int("percent"), a.int("maxContext"))
	if a.int("cap") > 0 {
		s += fmt.Sprintf(", lorebookBudgetCap %d", a.int("cap"))
	}
	return s + "): matched entries are ranked by position, then score, and the budget stops at the first that does not fit"
}

var yuminaSentences = map[Code]sentence{
	YuminaGreeting: {fixed("role greeting: Yumina opens a session with its greeting and never sends it as an entry (the transcript holds it)"), nil},
	YuminaDisabled: {fixed("disabled (enabled: false): Yumina skips it"), nil},
	YuminaDisabledConditions: {fixed("disabled (enabled: false), but it has conditions: Yumina still matches it, so its content can " +
		"activate other entries by recursion, and never sends it"), nil},
	YuminaAlwaysSendUnset: {func(a args) string {
		return "alwaysSend is not set: Yumina's default is false (lore's is true in " + a.str("section") + "), so only its keywords or conditions can bring it in"
	}, Params{P("section", "system-presets")}},
	YuminaAlwaysSendConditions: {fixed("alwaysSend: true, but it has conditions: Yumina matches it like any other entry instead of always sending it"), nil},
	YuminaConditionsHold:       {yuminaConditions(true), yuminaExample},
	YuminaConditionsFail:       {yuminaConditions(false), yuminaExample},
	YuminaNoWayIn:              {fixed("no keywords and no conditions, and alwaysSend is false: nothing can bring it in"), nil},
	YuminaConditionsOnly:       {fixed("no keywords: Yumina activates it by its conditions alone"), nil},
	YuminaRegexAsText: {func(a args) string {
		return fmt.Sprintf("keyword %q is not a regular expression JavaScript accepts (%s): Yumina looks for it as text", a.str("keyword"), a.str("error"))
	}, Params{P("keyword", "/(?<=a)b/"), P("error", "invalid group")}},
	YuminaNothingScanned: {fixed("no message was scanned (the transcript is empty)"), nil},
	YuminaNoMatch: {func(a args) string {
		s := fmt.Sprintf("no keyword matched in the scan window (the last %s joined with spaces; lorebookScanDepth %d, %s)",
			Plural(a.int("messages"), "message"), a.int("scanDepth"), a.str("from"))
		if a.bool("recursion") {
			s += " nor in the content of the entries activated by recursion"
		}
		return s
	}, Params{P("messages", 2), P("scanDepth", 2), P("from", "Yumina's default"), P("recursion", false)}},
	YuminaContentExcluded: {func(a args) string {
		return fmt.Sprintf("keyword %q matched only in the content of entry %s, and excludeRecursion lets only the chat activate it", a.str("keyword"), a.str("entry"))
	}, Params{P("keyword", "tavern"), P("entry", "inn")}},
	YuminaSecondaryFails: {func(a args) string {
		return fmt.Sprintf("keyword %q matched in %s: %s, but %s", a.str("keyword"), yuminaIn(a), a.str("excerpt"), secondaryLogic(a))
	}, Params{P("keyword", "tavern"), P("at", "message:3"), P("excerpt", "“…the tavern…”"), P("logic", "AND_ANY"),
		P("holds", false), P("in", "scanned-text"), P("matched", []string(nil)), P("missing", []string{"ale"})}},
	YuminaKeywordMatched: {func(a args) string {
		s := fmt.Sprintf("keyword %q matched in %s: %s", a.str("keyword"), yuminaIn(a), a.str("excerpt"))
		if l := a.int("level"); l > 0 {
			s += fmt.Sprintf(" (recursion level %d)", l)
		}
		return s
	}, Params{P("keyword", "tavern"), P("at", "message:3"), P("excerpt", "“…the tavern…”"), P("level", 0)}},
	YuminaBudgetStop: {func(a args) string {
		return yuminaBudget(a) + fmt.Sprintf(": this one (score %d) needed %d tokens with %d of %d used", a.int("score"), a.int("needed"), a.int("used"), a.int("budget"))
	}, Params{P("budget", 2048), P("percent", 25), P("maxContext", 8192), P("cap", 0), P("score", 3), P("needed", 300), P("used", 1900)}},
	YuminaBudgetAfter: {func(a args) string {
		return yuminaBudget(a) + fmt.Sprintf(", which was entry %s; this one (score %d) ranks after it", a.str("stop"), a.int("score"))
	}, Params{P("budget", 2048), P("percent", 25), P("maxContext", 8192), P("cap", 1000), P("stop", "inn"), P("score", 1)}},
	YuminaExampleMatched: {fixed("role example: Yumina builds example dialogue only from always-sent entries, so a matched one is not sent"), nil},
	YuminaNoDepth: {func(a args) string {
		return "chat-history entry without a depth (depth: null): Yumina sends it nowhere (its editor gives new entries depth " +
			strconv.Itoa(a.int("defaultDepth")) + ")"
	}, Params{P("defaultDepth", 4)}},
	YuminaExampleNoLines: {fixed("role example, but no {{user}}: or {{char}}: line was found in it: nothing is sent"), nil},
	YuminaExampleSent:    {fixed("role example: sent as example dialogue"), nil},
	YuminaInserted: {func(a args) string {
		d := a.int("depth")
		how := "depth " + strconv.Itoa(d)
		if a.bool("unset") {
			how = "depth is not set: Yumina's editor gives chat-history entries depth " + strconv.Itoa(d)
		}
		where := "after the newest message"
		if d > 0 {
			where = "with the " + Plural(d, "newest message") + " after it"
		}
		return fmt.Sprintf("%s: inserted %s (entries inserted before it count as messages)", how, where)
	}, Params{P("depth", 4), P("unset", true)}},
	YuminaPostHistory:   {fixed("sent after the chat (post-history), in a message of its own"), nil},
	YuminaSystem:        {fixed("sent in the system messages, joined with the system-role entries next to it"), nil},
	YuminaPlaceGreeting: {fixed("the chat's first message, which a Yumina session opens with, so the transcript holds it (docs/engines.md Y24)"), nil},
	YuminaNeverUnset: {fixed("Yumina's alwaysSend is false when unset, in every section, and the entry has no keywords or conditions; " +
		"set alwaysSend: true (docs/engines.md Y11)"), nil},
	YuminaNeverNoWayIn:  {fixed("alwaysSend: false and no keywords or conditions: nothing activates it in Yumina"), nil},
	YuminaNeverDisabled: {fixed("it is disabled: Yumina still matches it for its conditions, but sends it nowhere (docs/engines.md Y10)"), nil},
	YuminaNeverExample: {fixed("Yumina parses example dialogue only from always-sent entries: a matched example entry is sent nowhere; " +
		"set alwaysSend: true (docs/engines.md Y22)"), nil},
	YuminaNeverNoDepth: {fixed("Yumina sends a chat-history entry with depth: null nowhere; give it a depth (docs/engines.md Y17)"), nil},
	YuminaBudget: {func(a args) string {
		s := fmt.Sprintf("Yumina's lorebook budget of %d tokens (lorebookBudgetPercent %s%% of maxContext %d, from %s",
			a.int("tokens"), a.num("percent"), a.int("maxContext"), a.str("from"))
		if a.int("cap") > 0 {
			s += fmt.Sprintf(", capped at lorebookBudgetCap %d", a.int("cap"))
		}
		return s + ")"
	}, Params{P("tokens", 2048), P("percent", 25.0), P("maxContext", 8192), P("from", "lore's contextTokens"), P("cap", 0)}},
	YuminaBudgetInvalid:  {fixed("Yumina's lorebook budget (its settings are invalid: lore render --engine yumina says why)"), nil},
	YuminaBudgetOverflow: {fixed("so unless it is the first matched entry, Yumina's budget stops at it and leaves it and every entry ranked after it out"), nil},
	YuminaNoSpaceWords: {fixed("Yumina's whole words are JavaScript's \\b, which needs an ASCII letter, digit or _ on one side: " +
		"the keyword matches only where one touches it, so in text of its own script it never matches; remove matchWholeWords"), nil},
}

// yuminaIn is where a keyword matched: "message:3" or "the content of
// entry inn".
func yuminaIn(a args) string {
	if e := a.str("entry"); e != "" {
		return "the content of entry " + e
	}
	return a.str("at")
}
