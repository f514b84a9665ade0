package testrun

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
)

// The token expectations: the prompt's total, a budget section's tokens, and
// what the budget cut or left out, as the engine's budget report says.

func (c *checker) tokens(t *TokensExpect) {
	r := c.res.Report
	if r == nil {
		pos := Pos{}
		switch {
		case t.Total != nil:
			pos = rangePos(*t.Total)
		case len(t.Sections) > 0:
			pos = t.Sections[0].Name.Pos
		case t.Cut != nil:
			pos = t.Cut.Pos
		case t.Dropped != nil:
			pos = t.Dropped.Pos
		}
		c.fail(pos, "tokens", "a token budget report", "none",
			fmt.Sprintf("the %s engine reported no token budget to check", c.res.Engine))
		return
	}
	if t.Total != nil {
		c.bounds(*t.Total, "tokens.total", "the prompt", r.Total)
	}
	for _, s := range t.Sections {
		sec := r.Section(s.Name.V)
		if sec == nil {
			var names []string
			for _, x := range r.Sections {
				names = append(names, x.Name)
			}
			msg := fmt.Sprintf("no budget section %q (sections: %s)", s.Name.V, strings.Join(names, ", "))
			if sg := output.Suggest(s.Name.V, names); sg != "" {
				msg = fmt.Sprintf("no budget section %q (did you mean %q?)", s.Name.V, sg)
			}
			c.fail(s.Name.Pos, "tokens.section", "a section "+s.Name.V, "no such section", msg)
			continue
		}
		c.bounds(s.Range, "tokens.section", "section "+s.Name.V, sec.Tokens)
	}
	if t.Cut != nil {
		c.budgetKeys(t.Cut, "tokens.cut", "cut", cutKeys(c.res))
	}
	if t.Dropped != nil {
		var dropped []string
		for _, s := range r.Sections {
			dropped = append(dropped, s.Dropped...)
		}
		c.budgetKeys(t.Dropped, "tokens.dropped", "left out", dropped)
	}
}

func rangePos(r Range) Pos {
	if r.Max != nil {
		return r.Max.Pos
	}
	if r.Min != nil {
		return r.Min.Pos
	}
	return Pos{}
}

func (c *checker) bounds(r Range, kind, what string, got int) {
	if r.Max != nil && got > r.Max.V {
		c.fail(r.Max.Pos, kind, fmt.Sprintf("at most %d tokens", r.Max.V), fmt.Sprintf("%d tokens", got),
			fmt.Sprintf("expected %s to have at most %d tokens; it has %d", what, r.Max.V, got))
	}
	if r.Min != nil && got < r.Min.V {
		c.fail(r.Min.Pos, kind, fmt.Sprintf("at least %d tokens", r.Min.V), fmt.Sprintf("%d tokens", got),
			fmt.Sprintf("expected %s to have at least %d tokens; it has %d", what, r.Min.V, got))
	}
}

// cutKeys are the pieces the budget shortened: its notes, and the messages
// it marked cut (an engine may fill either).
func cutKeys(res *render.Result) []string {
	var out keys
	for _, s := range res.Report.Sections {
		for _, n := range s.Notes {
			if n.Cut {
				out.add(n.Key)
			}
		}
	}
	for _, m := range res.Messages {
		if m.Cut {
			out.add(m.Sources...)
		}
	}
	return out.list
}

// keys is a list without repeats, in the order first added.
type keys struct {
	list []string
	seen map[string]bool
}

func (k *keys) add(ks ...string) {
	if k.seen == nil {
		k.seen = map[string]bool{}
	}
	for _, x := range ks {
		if !k.seen[x] {
			k.seen[x] = true
			k.list = append(k.list, x)
		}
	}
}

// budgetKeys checks that each listed key is among got; an empty list says
// that nothing may be.
func (c *checker) budgetKeys(l *IDList, kind, verb string, got []string) {
	if len(l.IDs) == 0 {
		if len(got) > 0 {
			c.fail(l.Pos, kind, "nothing "+verb, strings.Join(got, ", "),
				fmt.Sprintf("expected the budget to have %s nothing; it %s %s", verb, verb, strings.Join(got, ", ")), got...)
		}
		return
	}
	gotSet := set(got)
	for _, id := range l.IDs {
		if gotSet[id.V] {
			continue
		}
		now := "it is not"
		if len(got) > 0 {
			now += fmt.Sprintf(" (%s: %s)", verb, strings.Join(got, ", "))
		}
		c.fail(id.Pos, kind, verb, "not "+verb, fmt.Sprintf("expected %s %s by the budget; %s", id.V, verb, now), id.V)
	}
}
