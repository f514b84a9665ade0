package lint

import (
	"maps"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
)

// WithEngines returns a copy of c that judges by judge and knows lore's own
// engine as base: the engine lint's own rules are written for, which
// engine-divergence compares judge with and whose sizing the budget rules
// measure (render.Sizer). The caller resolves both through the registry
// (package engine: --engine or LORE_ENGINE, else the manifest's
// settings.engine, else the engine of the format the book was read from). A
// nil judge, or base itself, is judged by lint's own rules; without a base,
// the rules that measure lore's budget do not run.
func (c *Config) WithEngines(judge, base render.Engine) *Config {
	cp := *c
	cp.judge, cp.base = judge, base
	return &cp
}

// engineFor builds what the rules assume of the engine the lint judges by,
// from the engine's profile and its description of the book.
func engineFor(cfg *Config, book *schema.Lorebook, vars *schema.Vars, s schema.Settings, from settings.Source) Engine {
	eng := loreEngine(from)
	if cfg.base != nil {
		eng.Name, eng.Says = cfg.base.Name(), render.ProfileOf(cfg.base).Says()
		eng.Sizer, _ = cfg.base.(render.Sizer)
	}
	j := cfg.judge
	if j == nil || cfg.base != nil && j.Name() == cfg.base.Name() {
		return eng
	}
	p := render.ProfileOf(j)
	// s.Engines has --st-settings's keys laid over the manifest's already
	// (settings.Resolver); the engine decodes them once for every question
	// below.
	in := &render.Input{Book: book, Settings: s, EngineSettings: s.Engines[p.Name]}
	render.DecodeEngineSettings(j, in)
	if vars != nil {
		in.Vars = vars.Values
	}
	eng.Name, eng.Says = p.Name, p.Says()
	if p.WordRune != nil {
		eng.WordRune = p.WordRune
	}
	eng.WholeWordsNoSpaces = p.WholeWordsNoSpaces
	eng.NoRequiredCap = p.Budget != render.BudgetShares
	eng.AlwaysOutsideBudget = p.AlwaysSent == render.AlwaysOutsideBudget
	d, ok := j.(render.Describer)
	if !ok {
		return eng
	}
	desc := d.Describe(in)
	eng.Fates, eng.WholeWords, eng.NoRecursion = desc.Fates, desc.WholeWords, !desc.Recursive
	eng.Chances = desc.Chances
	if desc.Budget != nil {
		b := *desc.Budget
		eng.CardBudget = func(*Context) CardBudget {
			return CardBudget{Tokens: b.Tokens, Says: b.Says.Text(), Then: b.Then.Text()}
		}
	}
	if bd, ok := cfg.base.(render.Describer); ok {
		eng.LoreFates = bd.Describe(&render.Input{Book: book, Settings: s}).Fates
	}
	return eng
}

// fate is what the judging engine does with entry i of the book, when it is
// not lore's (ok false: lore's own rules decide).
func (c *Context) fate(i int) (render.Fate, bool) {
	if c.Engine.Fates == nil || i >= len(c.Engine.Fates) {
		return render.Fate{}, false
	}
	return c.Engine.Fates[i], true
}

// engineSays names the judging engine in a message.
func (c *Context) engineSays() string { return c.Engine.Says }

// index is entry e's place in the book (-1 when it is not there), from an
// index built once per run.
func (c *Context) index(e *schema.Entry) int {
	if c.shared.index == nil {
		c.shared.index = make(map[*schema.Entry]int, len(c.Book.Entries))
		for i, x := range c.Book.Entries {
			c.shared.index[x] = i
		}
	}
	if i, ok := c.shared.index[e]; ok {
		return i
	}
	return -1
}

// WithEnabled returns a copy of c in which the named rules that are off by
// default run at their own level, unless c already gives them one (--enable).
func (c *Config) WithEnabled(ids []string) *Config {
	cp := *c
	cp.Rules = maps.Clone(c.Rules)
	if cp.Rules == nil {
		cp.Rules = map[string]diag.Severity{}
	}
	for _, id := range ids {
		if r := byID(id); r != nil {
			if _, set := c.Rules[id]; !set || c.Rules[id] == 0 {
				cp.Rules[id] = r.Severity
			}
		}
	}
	return &cp
}

// RuleByID returns the rule with that id, or nil.
func RuleByID(id string) *Rule { return byID(id) }
