package testrun

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
)

// checkPrompt checks every expectation of one prompt but the snapshot and the
// frequencies (which need the file system and every run).
func checkPrompt(e *Expect, res *render.Result) []*Failure {
	c := &checker{res: res}
	for _, id := range e.Active {
		c.active(id)
	}
	for _, id := range e.Inactive {
		c.inactive(id)
	}
	if e.ActiveExactly != nil {
		c.activeExactly(e.ActiveExactly)
	}
	for _, x := range e.Entries {
		c.entry(x)
	}
	if e.Order != nil {
		c.order(e.Order)
	}
	if e.Tokens != nil {
		c.tokens(e.Tokens)
	}
	if len(e.Contains) > 0 || len(e.NotContains) > 0 {
		c.prompt(e.Contains, e.NotContains)
	}
	return c.fails
}

type checker struct {
	res   *render.Result
	fails []*Failure
}

func (c *checker) fail(pos Pos, kind, expected, got, message string, ids ...string) {
	c.fails = append(c.fails, &Failure{Pos: pos, Kind: kind, Expected: expected, Got: got, Message: message,
		Explain: explain(c.res, ids...)})
}

// explain is `lore render --explain` for each entry of ids that the lorebook
// has, once each.
func explain(res *render.Result, ids ...string) []Explanation {
	var out []Explanation
	for i, id := range ids {
		if slices.Contains(ids[:i], id) || res.Entry(id) == nil {
			continue
		}
		var b strings.Builder
		_ = output.WriteExplanation(&b, res, id, false)
		x := Explanation{ID: id, InPrompt: res.InPrompt(id) != nil, Text: b.String(), Reasons: []string{}}
		if why := res.Explanations()[id]; why != nil {
			x.Reasons = append(x.Reasons, why.Texts()...)
		}
		out = append(out, x)
	}
	return out
}

// known reports whether the lorebook has the entry; when it does not, the
// expectation fails with the nearest id, since no prompt could satisfy it.
func (c *checker) known(id At[string], kind string) bool {
	if c.res.Entry(id.V) != nil {
		return true
	}
	msg := fmt.Sprintf("no entry %q in the lorebook", id.V)
	var ids []string
	if c.res.Book != nil {
		for _, e := range c.res.Book.Entries {
			ids = append(ids, e.ID)
		}
	}
	if s := output.Suggest(id.V, ids); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	c.fail(id.Pos, kind, "an entry "+id.V, "no such entry", msg)
	return false
}

// where says where an entry is in the prompt, or why it is not, briefly.
func where(res *render.Result, id string) string {
	if a := res.InPrompt(id); a != nil {
		s := fmt.Sprintf("in the prompt at step %d", a.Step)
		if a.Depth != nil {
			s += fmt.Sprintf(", depth %d", *a.Depth)
		}
		return s + ", " + trigger(a.Trigger)
	}
	if x := res.Explanations()[id]; x != nil && x.Active {
		return "activated, but not in the prompt"
	}
	return "not in the prompt"
}

func trigger(t render.Trigger) string {
	switch {
	case t.In == "always" || t.In == "":
		return "always sent"
	case t.Keyword != "":
		// As the engines' reasons write a keyword: between plain quotes,
		// so a /regex/ reads as written.
		return fmt.Sprintf("keyword \"%s\" in %s", t.Keyword, t.In)
	}
	return "from " + t.In
}

func (c *checker) active(id At[string]) {
	if !c.known(id, "active") || c.res.InPrompt(id.V) != nil {
		return
	}
	got := where(c.res, id.V)
	c.fail(id.Pos, "active", "in the prompt", got, fmt.Sprintf("expected %s in the prompt; it is %s", id.V, got), id.V)
}

func (c *checker) inactive(id At[string]) {
	if !c.known(id, "inactive") || c.res.InPrompt(id.V) == nil {
		return
	}
	got := where(c.res, id.V)
	c.fail(id.Pos, "inactive", "not in the prompt", got, fmt.Sprintf("expected %s not in the prompt; it is %s", id.V, got), id.V)
}

func (c *checker) inPrompt() []string {
	ids := make([]string, len(c.res.Activated))
	for i, a := range c.res.Activated {
		ids[i] = a.ID
	}
	return ids
}

func (c *checker) activeExactly(l *IDList) {
	var want []string
	for _, id := range l.IDs {
		if c.known(id, "activeExactly") {
			want = append(want, id.V)
		}
	}
	got := c.inPrompt()
	wantSet, gotSet := set(want), set(got)
	var missing, extra []string
	for _, id := range want {
		if !gotSet[id] {
			missing = append(missing, id)
		}
	}
	for _, id := range got {
		if !wantSet[id] {
			extra = append(extra, id)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		parts = append(parts, "also in the prompt: "+strings.Join(extra, ", "))
	}
	c.fail(l.Pos, "activeExactly", list(want), list(got),
		fmt.Sprintf("expected exactly %s in the prompt; %s", list(want), strings.Join(parts, "; ")),
		append(missing, extra...)...)
}

func set(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func list(ids []string) string {
	if len(ids) == 0 {
		return "no entries"
	}
	return strings.Join(ids, ", ")
}

func (c *checker) entry(x *EntryExpect) {
	id := x.ID.V
	if !c.known(x.ID, "entries") {
		return
	}
	a := c.res.InPrompt(id)
	if a == nil {
		got := where(c.res, id)
		c.fail(x.ID.Pos, "entries", "in the prompt", got, fmt.Sprintf("expected %s in the prompt; it is %s", id, got), id)
		return
	}
	if x.Step != nil && a.Step != x.Step.V {
		c.fail(x.Step.Pos, "entries.step", fmt.Sprintf("step %d", x.Step.V), fmt.Sprintf("step %d", a.Step),
			fmt.Sprintf("%s: expected step %d, got step %d", id, x.Step.V, a.Step), id)
	}
	if x.Depth != nil && !sameDepth(x.Depth.V, a.Depth) {
		c.fail(x.Depth.Pos, "entries.depth", depth(x.Depth.V), depth(a.Depth),
			fmt.Sprintf("%s: expected %s, got %s", id, depth(x.Depth.V), depth(a.Depth)), id)
	}
	if x.Position != nil && a.Position != x.Position.V {
		got := "position " + a.Position
		if a.Position == "" {
			got = fmt.Sprintf("no position (the %s engine names no insertion points)", c.res.Engine)
		}
		c.fail(x.Position.Pos, "entries.position", "position "+x.Position.V, got,
			fmt.Sprintf("%s: expected position %s, got %s", id, x.Position.V, got), id)
	}
	if x.Recursion != nil && a.Recursion != x.Recursion.V {
		c.fail(x.Recursion.Pos, "entries.recursion", fmt.Sprintf("recursion level %d", x.Recursion.V),
			fmt.Sprintf("recursion level %d", a.Recursion),
			fmt.Sprintf("%s: expected recursion level %d, got %d (%s)", id, x.Recursion.V, a.Recursion, trigger(a.Trigger)), id)
	}
	if x.Keyword != nil && a.Trigger.Keyword != x.Keyword.V {
		c.fail(x.Keyword.Pos, "entries.trigger", fmt.Sprintf("keyword \"%s\"", x.Keyword.V), trigger(a.Trigger),
			fmt.Sprintf("%s: expected to be brought in by keyword \"%s\", got %s", id, x.Keyword.V, trigger(a.Trigger)), id)
	}
	if x.In != nil && a.Trigger.In != x.In.V {
		c.fail(x.In.Pos, "entries.trigger", "in "+x.In.V, trigger(a.Trigger),
			fmt.Sprintf("%s: expected to be brought in by %s, got %s", id, x.In.V, trigger(a.Trigger)), id)
	}
}

func sameDepth(want, got *int) bool {
	if want == nil || got == nil {
		return want == nil && got == nil
	}
	return *want == *got
}

func depth(d *int) string {
	if d == nil {
		return "no depth (not injected into the chat history)"
	}
	return fmt.Sprintf("depth %d", *d)
}

func (c *checker) order(l *IDList) {
	var want []string
	for _, id := range l.IDs {
		if !c.known(id, "order") {
			return
		}
		if c.res.InPrompt(id.V) == nil {
			got := where(c.res, id.V)
			c.fail(id.Pos, "order", "in the prompt", got,
				fmt.Sprintf("expected %s in the prompt (to check the order); it is %s", id.V, got), id.V)
			return
		}
		want = append(want, id.V)
	}
	var got []string
	wantSet := set(want)
	for _, id := range c.inPrompt() {
		if wantSet[id] {
			got = append(got, id)
			delete(wantSet, id)
		}
	}
	if slices.Equal(want, got) {
		return
	}
	c.fail(l.Pos, "order", strings.Join(want, " → "), strings.Join(got, " → "),
		fmt.Sprintf("expected the order %s; the prompt has %s", strings.Join(want, " → "), strings.Join(got, " → ")), want...)
}

func (c *checker) prompt(contains, notContains []At[string]) {
	for _, s := range contains {
		found := false
		for _, m := range c.res.Messages {
			if strings.Contains(m.Content, s.V) {
				found = true
				break
			}
		}
		if !found {
			c.fail(s.Pos, "prompt.contains", fmt.Sprintf("the prompt to contain %q", s.V), "it does not",
				fmt.Sprintf("expected the prompt to contain %q; it does not", s.V))
		}
	}
	for _, s := range notContains {
		var k keys
		for _, m := range c.res.Messages {
			if strings.Contains(m.Content, s.V) {
				k.add(m.Sources...)
				if len(m.Sources) == 0 {
					k.add(fmt.Sprintf("the step %d marker", m.Step))
				}
			}
		}
		if in := k.list; len(in) > 0 {
			c.fail(s.Pos, "prompt.notContains", fmt.Sprintf("the prompt not to contain %q", s.V), "it does, in "+strings.Join(in, ", "),
				fmt.Sprintf("expected the prompt not to contain %q; it does, in %s", s.V, strings.Join(in, ", ")), in...)
		}
	}
}
