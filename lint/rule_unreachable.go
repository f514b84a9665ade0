package lint

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/schema"
)

// checkUnreachable reports enabled entries that can never be sent: no way in (a
// chat-history entry without keywords that is not constant, or another section's
// entry with alwaysSend: false and no keywords), secondary logic that fails
// whenever the primary matches, and conditions that contradict each other.
// Disabled entries are left alone: the creator switched them off on purpose.
// Advice is given in the words of the format the book was read from, and many
// entries without a way in fold into one line of text output.
func checkUnreachable(c *Context) {
	c.unreachable(true)
}

// neverSent reports an entry unreachable-entry finds: other rules leave it
// alone, since whatever else is wrong with it never reaches a prompt.
func (c *Context) neverSent(e *schema.Entry) bool {
	if c.shared.never == nil {
		c.unreachable(false)
	}
	return c.shared.never[e]
}

// unreachable finds the entries that can never be sent, reporting them when
// report is set (the running rule is then unreachable-entry).
func (c *Context) unreachable(report bool) {
	never := map[*schema.Entry]bool{}
	rep := c
	if !report {
		rep = &Context{Book: c.Book, Vars: c.Vars, Settings: c.Settings, Engine: c.Engine, shared: c.shared,
			rejected: c.rejected, rule: c.rule} // its findings are only counted
	}
	v := c.say()
	for i, e := range c.Book.Entries {
		if !e.Enabled || c.rejectedField(e, "section", "alwaysSend", "keywords", "enabled") {
			continue
		}
		n := len(rep.findings)
		if f, ok := c.fate(i); ok {
			// Another engine: its own account of the entry decides whether
			// anything brings it in and sends it somewhere.
			if !f.Sent() {
				never := f.Never.Text()
				rep.reportGrouped(e, neverAt(e, f.Never), "%d entries can never be sent by "+c.engineSays()+": "+never, entryName(e),
					"entry %s can never be sent by %s: %s", entryName(e), c.engineSays(), never)
			} else {
				if f.Activation == "keywords" && !c.rejectedField(e, "secondaryKeywordLogic") {
					impossibleSecondary(rep, e)
				}
				if !c.rejectedField(e, "conditionLogic") {
					contradictoryConditions(rep, e)
				}
			}
		} else if !e.AlwaysSend && len(e.Keywords) == 0 {
			if !vectorized(e) {
				rep.noWayIn(e, v)
			}
		} else {
			broken := !e.AlwaysSend && brokenKeywords(rep, e)
			if !e.AlwaysSend && !broken && !c.rejectedField(e, "secondaryKeywordLogic") {
				impossibleSecondary(rep, e)
			}
			if !broken && !c.rejectedField(e, "conditionLogic") {
				contradictoryConditions(rep, e)
			}
		}
		if len(rep.findings) > n {
			never[e] = true
		}
	}
	if !report {
		rep.findings = nil
	}
	c.shared.never = never
}

// noWayIn reports an entry without keywords that is not always sent.
func (c *Context) noWayIn(e *schema.Entry, v vocab) {
	switch {
	case c.foreign() && v.constant == "":
		c.reportGrouped(e, keywordsOrEntry(e),
			"%d entries have no "+v.keywords+", so they can never be sent; add "+v.keywords, entryName(e),
			"entry %s can never be sent: it has no %s; add %s", entryName(e), v.keywords, v.keywords)
	case c.foreign():
		c.reportGrouped(e, keywordsOrEntry(e),
			"%d entries have no "+v.keywords+" and "+v.notConst+", so they can never be sent; add "+v.keywords+" or "+v.constant, entryName(e),
			"entry %s can never be sent: it has no %s and %s; add %s or %s", entryName(e), v.keywords, v.notConst, v.keywords, v.constant)
	case e.Section == schema.SectionChatHistory:
		c.reportGrouped(e, keywordsOrEntry(e),
			"%d chat-history entries have no keywords and are not constant, so they can never be sent; add keywords, or set alwaysSend: true to send them always", entryName(e),
			"entry %s can never be sent: a chat-history entry needs keywords, or alwaysSend: true to be constant", entryName(e))
	default:
		c.reportGrouped(e, e.FieldPos("alwaysSend"),
			"%d "+e.Section+" entries have alwaysSend: false and no keywords, so they can never be sent; add keywords or remove alwaysSend: false", entryName(e),
			"entry %s can never be sent: alwaysSend: false on a %s entry without keywords; add keywords or remove alwaysSend: false", entryName(e), e.Section)
	}
}

// vectorized reports a SillyTavern entry that its vector storage activates by
// meaning rather than by keywords: without keywords it is still reachable
// there, through a mechanism lore does not model.
func vectorized(e *schema.Entry) bool {
	for _, ext := range e.Extensions {
		if m, ok := ext.(map[string]any); ok && m["vectorized"] == true {
			return true
		}
	}
	return false
}

// neverAt is where a finding about an entry an engine never sends goes: at
// the field the engine's reason comes from, when the entry has it (the
// probability that is 0, the scanDepth that scans nothing), else at its
// keywords or its id.
func neverAt(e *schema.Entry, r reason.Reason) schema.Pos {
	if r.Field != "" && r.Pos.File != "" && r.Pos != e.Pos {
		return r.Pos
	}
	return keywordsOrEntry(e)
}

func keywordsOrEntry(e *schema.Entry) schema.Pos {
	if e.Has("keywords") {
		return e.FieldPos("keywords")
	}
	return e.FieldPos("id")
}

// implies says that whenever primary kw p matches, secondary kw s matches the same
// text: the same normalised literal, or (matching as a substring) a part of it.
func (c *Context) implies(e *schema.Entry, p, s string) bool {
	if match.IsRegex(p) || match.IsRegex(s) {
		return p == s
	}
	np, ns := match.Normalize(p), match.Normalize(s)
	if ns == "" {
		return false
	}
	if np == ns {
		return true
	}
	return c.substringKeyword(e, s) && strings.Contains(np, ns)
}

// impossibleSecondary: NOT_ANY fails whenever some secondary is implied by the
// primary that matched; NOT_ALL fails when every secondary is. If that holds for
// every primary, the entry never activates.
func impossibleSecondary(c *Context, e *schema.Entry) {
	if len(e.SecondaryKeywords) == 0 {
		return
	}
	logic := e.SecondaryKeywordLogic
	if logic != schema.NotAny && logic != schema.NotAll {
		return
	}
	var blocker string
	for _, p := range e.Keywords {
		some, all := "", true
		for _, s := range e.SecondaryKeywords {
			if c.implies(e, p.Text, s.Text) {
				if some == "" {
					some = s.Text
				}
			} else {
				all = false
			}
		}
		if (logic == schema.NotAny && some == "") || (logic == schema.NotAll && !all) {
			return // this primary can activate the entry
		}
		if blocker == "" {
			blocker = some
		}
	}
	what := fmt.Sprintf("secondary keyword %q matches whenever a primary keyword does", blocker)
	if logic == schema.NotAll {
		what = "every secondary keyword matches whenever a primary keyword does"
	}
	c.Report(e, e.FieldPos("secondaryKeywordLogic"), "entry %s can never be sent: %s, and %s forbids that; remove it from secondaryKeywords or change secondaryKeywordLogic",
		entryName(e), what, logic)
}

// bound is one side of a numeric interval from a condition.
type bound struct {
	v      float64
	strict bool
	cond   *schema.Condition
}

// contradictoryConditions looks, under conditionLogic all, for conditions on one
// variable that cannot hold together: two different eq values, eq and neq of one
// value, an eq outside the gt/lt bounds, or bounds with nothing between them.
// It reports the first contradiction, at the later condition.
func contradictoryConditions(c *Context, e *schema.Entry) {
	if len(e.Conditions) < 2 || e.ConditionLogic == "any" {
		return
	}
	type varState struct {
		eq     *schema.Condition
		neq    []*schema.Condition
		lo, hi *bound
	}
	states := map[string]*varState{}
	for i := range e.Conditions {
		cond := &e.Conditions[i]
		s := states[cond.VariableID]
		if s == nil {
			s = &varState{}
			states[cond.VariableID] = s
		}
		var other *schema.Condition
		switch cond.Operator {
		case "eq":
			if s.eq != nil && !sameValue(s.eq.Value, cond.Value) {
				other = s.eq
			}
			for _, n := range s.neq {
				if sameValue(n.Value, cond.Value) {
					other = n
				}
			}
			if other == nil {
				other = outside(cond.Value, s.lo, s.hi)
			}
			if s.eq == nil {
				s.eq = cond
			}
		case "neq":
			if s.eq != nil && sameValue(s.eq.Value, cond.Value) {
				other = s.eq
			}
			s.neq = append(s.neq, cond)
		case "gt", "gte", "lt", "lte":
			n, ok := number(cond.Value)
			if !ok {
				continue // condition-type reports it
			}
			b := &bound{v: n, strict: cond.Operator == "gt" || cond.Operator == "lt", cond: cond}
			if cond.Operator[0] == 'g' {
				if s.lo == nil || b.v > s.lo.v || (b.v == s.lo.v && b.strict) {
					s.lo = b
				}
			} else if s.hi == nil || b.v < s.hi.v || (b.v == s.hi.v && b.strict) {
				s.hi = b
			}
			if s.lo != nil && s.hi != nil && (s.lo.v > s.hi.v || (s.lo.v == s.hi.v && (s.lo.strict || s.hi.strict))) {
				other = s.lo.cond
				if other == cond {
					other = s.hi.cond
				}
			} else if s.eq != nil {
				other = outside(s.eq.Value, s.lo, s.hi)
				if other == cond {
					other = s.eq
				}
			}
		}
		if other != nil && other != cond {
			c.Report(e, cond.FieldPos("operator"), "entry %s can never be sent: conditions %s and %s (at %s) cannot both hold under conditionLogic: all; fix one of them",
				entryName(e), condText(cond), condText(other), lineOf(other.Pos))
			return
		}
	}
}

// outside returns the bound's condition that a value violates, or nil.
func outside(val any, lo, hi *bound) *schema.Condition {
	n, ok := number(val)
	if !ok {
		return nil
	}
	if lo != nil && (n < lo.v || (n == lo.v && lo.strict)) {
		return lo.cond
	}
	if hi != nil && (n > hi.v || (n == hi.v && hi.strict)) {
		return hi.cond
	}
	return nil
}

// sameValue compares condition values as the engine does: numerically when both
// are numbers or numeric strings, else exactly.
func sameValue(a, b any) bool {
	x, okA := number(a)
	y, okB := number(b)
	if okA && okB {
		return x == y
	}
	return describe(a) == describe(b) && schema.TypeOf(a) == schema.TypeOf(b)
}

func condText(c *schema.Condition) string {
	return c.VariableID + " " + c.Operator + " " + describe(c.Value)
}

// brokenKeywords: keywords that cannot match make the entry unreachable when
// every primary is a regular expression that does not compile, or when AND_ALL
// needs a secondary that does not compile (AND_ANY: when all of them do not).
// invalid-regex reports each pattern; this says what it does to the entry.
func brokenKeywords(c *Context, e *schema.Entry) bool {
	broken := func(k schema.Keyword) bool {
		if !match.IsRegex(k.Text) {
			return false
		}
		_, err := match.CompileRegex(k.Text)
		return err != nil
	}
	allBroken := func(ks []schema.Keyword) bool {
		for _, k := range ks {
			if !broken(k) {
				return false
			}
		}
		return len(ks) > 0
	}
	if allBroken(e.Keywords) {
		c.Report(e, e.FieldPos("keywords"), "entry %s can never be sent: none of its keywords compiles (see invalid-regex); fix them", entryName(e))
		return true
	}
	switch e.SecondaryKeywordLogic {
	case schema.AndAll:
		for _, k := range e.SecondaryKeywords {
			if broken(k) {
				c.Report(e, k.Pos, "entry %s can never be sent: AND_ALL needs secondary keyword %s, which does not compile (see invalid-regex); fix it", entryName(e), k.Text)
				return true
			}
		}
	case schema.AndAny, "":
		if allBroken(e.SecondaryKeywords) {
			c.Report(e, e.FieldPos("secondaryKeywords"), "entry %s can never be sent: AND_ANY needs one secondary keyword, and none compiles (see invalid-regex); fix them", entryName(e))
			return true
		}
	}
	return false
}
