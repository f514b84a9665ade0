package reason

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// What several engines say alike: the secondary logic's verdict, the
// conditions' verdict, and the places in lore's 13 steps.
const (
	// SecondaryLogic is the secondary keywords' verdict on one text. Params:
	// logic ("AND_ANY"…), holds, in (the text: "scan-window", "content",
	// "scanned-text"), matched and missing (the keywords, as written).
	SecondaryLogic Code = "secondary-logic"

	// ConditionsHold, ConditionsHoldAny, ConditionsFail and
	// ConditionsFailAny are the conditions' verdict (under conditionLogic
	// all, or any). Params: conditions ([]Condition: the ones that decided).
	ConditionsHold    Code = "conditions.hold"
	ConditionsHoldAny Code = "conditions.hold-any"
	ConditionsFail    Code = "conditions.fail"
	ConditionsFailAny Code = "conditions.fail-any"

	// AlwaysSent: an entry sent whatever the chat (alwaysSend: true).
	AlwaysSent Code = "always-sent"
	// NeverDisabled: what can never bring a disabled entry in.
	NeverDisabled Code = "never-disabled"

	// The places of lore's assembly an engine can put an entry in.
	PlaceSystemPresets Code = "place.system-presets"
	PlaceExamples      Code = "place.examples"
	PlacePostHistory   Code = "place.post-history"
	PlaceTriggered     Code = "place.triggered"
	// PlaceHistory is a place in the chat history. Params: after (the
	// messages after it), depth, role when the engine gives one, defaultOf
	// (the engine's title) when the depth is the engine's default.
	PlaceHistory Code = "place.history"
)

// Condition is one condition of an entry with its verdict, for the
// conditions' reasons.
type Condition struct {
	Variable string `json:"variable"`
	Operator string `json:"operator"`
	Value    any    `json:"value"`
	Holds    bool   `json:"holds"`
	// Current is the variable's value, when it has one (Set).
	Current any  `json:"current,omitempty"`
	Set     bool `json:"set"`
	// Source is where the value comes from: "variables" (the variables
	// file), "manifest" (its default), "undeclared".
	Source string `json:"source"`
}

var sharedSentences = map[Code]sentence{
	SecondaryLogic: {secondaryLogic, Params{P("logic", "AND_ANY"), P("holds", false), P("in", "scan-window"),
		P("matched", []string(nil)), P("missing", []string{"ale", "mead"})}},
	ConditionsHold:     {conditions("conditions hold: "), conditionsExample(true)},
	ConditionsHoldAny:  {conditions("conditions hold (conditionLogic any): "), conditionsExample(true)},
	ConditionsFail:     {conditions("left out: "), conditionsExample(false)},
	ConditionsFailAny:  {conditions("left out: no condition holds (conditionLogic any): "), conditionsExample(false)},
	AlwaysSent:         {fixed("always sent (alwaysSend: true)"), nil},
	NeverDisabled:      {fixed("it is disabled (enabled: false)"), nil},
	PlaceSystemPresets: {fixed("system presets (step 1)"), nil},
	PlaceExamples:      {fixed("example dialogue (step 4)"), nil},
	PlacePostHistory:   {fixed("post-history (step 13)"), nil},
	PlaceTriggered:     {fixed("the triggered block (step 6)"), nil},
	PlaceHistory:       {historyPlace, Params{P("after", 3), P("depth", 2)}},
}

func fixed(s string) func(args) string { return func(args) string { return s } }

// secondaryLogic: "secondary logic AND_ANY fails in the scan window: none
// of "ale", "mead" matched".
func secondaryLogic(a args) string {
	matched, missing := quoteAll(a.strs("matched")), quoteAll(a.strs("missing"))
	verdict := "holds"
	if !a.bool("holds") {
		verdict = "fails"
	}
	var detail string
	switch {
	case len(matched) == 0:
		detail = "none of " + strings.Join(missing, ", ") + " matched"
	case len(missing) == 0 && len(matched) == 1:
		detail = matched[0] + " matched"
	case len(missing) == 0:
		detail = "all of " + strings.Join(matched, ", ") + " matched"
	default:
		detail = strings.Join(matched, ", ") + " matched (" + strings.Join(missing, ", ") + " did not)"
	}
	where := map[string]string{"scan-window": "the scan window", "content": "that content", "scanned-text": "the scanned text"}[a.str("in")]
	return "secondary logic " + a.str("logic") + " " + verdict + " in " + where + ": " + detail
}

// Keyword quotes a keyword for a sentence without escaping its
// backslashes, so a regular expression reads as the creator wrote it.
func Keyword(s string) string { return "\"" + s + "\"" }

func quoteAll(ks []string) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = Keyword(k)
	}
	return out
}

func conditions(lead string) func(args) string {
	return func(a args) string {
		cs, _ := a.v("conditions").([]Condition)
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = c.text()
		}
		return lead + strings.Join(parts, "; ")
	}
}

func conditionsExample(holds bool) Params {
	return Params{P("conditions", []Condition{{Variable: "story-phase", Operator: "eq", Value: "act1", Holds: holds,
		Current: map[bool]any{true: "act1", false: "act2"}[holds], Set: true, Source: "variables"}})}
}

// text is one condition as a sentence part, with the variable's current
// value: `condition story-phase eq "act1" is false (story-phase is "act2",
// from the variables file)`.
func (c Condition) text() string {
	verdict := "false"
	if c.Holds {
		verdict = "true"
	}
	s := fmt.Sprintf("condition %s %s %s is %s", c.Variable, c.Operator, Quote(c.Value), verdict)
	source := map[string]string{"variables": "from the variables file", "manifest": "the manifest default",
		"undeclared": "neither declared in the manifest nor given in the variables file"}[c.Source]
	if !c.Set {
		return s + fmt.Sprintf(" (%s is %s)", c.Variable, source)
	}
	return s + fmt.Sprintf(" (%s is %s, %s)", c.Variable, Quote(c.Current), source)
}

// historyPlace phrases a place in the chat history: the messages that come
// after the entry ("after the newest message", "just before the newest
// message", "with 3 messages after it"), then the depth it came from, the
// role it gets and whose default it is ("depth 4, Yumina's default").
func historyPlace(a args) string {
	var where string
	switch after := a.int("after"); after {
	case 0:
		where = "after the newest message"
	case 1:
		where = "just before the newest message"
	default:
		where = fmt.Sprintf("with %d messages after it", after)
	}
	depth := "depth " + strconv.Itoa(a.int("depth"))
	if a.has("role") {
		depth += ", role " + a.str("role")
	}
	if of := a.str("defaultOf"); of != "" {
		depth += ", " + of + "'s default"
	}
	return "the chat history, " + where + " (" + depth + ")"
}

// Plain prints a value the way a creator would write it: strings as they
// are, numbers without a trailing ".0", lists joined with ", " (what
// {{getvar::id}} gives), objects as compact JSON, null as "".
func Plain(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Plain(e)
		}
		return strings.Join(parts, ", ")
	case []string:
		return strings.Join(x, ", ")
	case float64:
		if x == x { // NaN has no JSON either: "?" below
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 64)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	}
	b, err := json.Marshal(v) // map keys come out sorted
	if err != nil {
		return "?"
	}
	return string(b)
}

// Quote prints a value for a sentence: strings quoted, the rest as YAML
// would show them.
func Quote(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Quote(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return Plain(v)
}

// Plural is "1 message", "3 messages".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
