package lint

import (
	"fmt"
	"maps"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/engine/sillytavern"
	"github.com/lorekit/lore/engine/yumina"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
)

// engineName is the engine the lint judges by: --engine (or LORE_ENGINE),
// else the manifest's settings.engine, else the engine of the format the book
// was read from, else lore's.
func engineName(res *settings.Resolved, book *schema.Lorebook) string {
	name, _ := engine.Choose(res.Engine, book)
	return name
}

// engineFor builds what the rules assume of the named engine. An unknown
// name (a manifest the schema already reported) judges by lore's.
func engineFor(name string, book *schema.Lorebook, vars *schema.Vars, s schema.Settings, from settings.Source) Engine {
	eng := loreEngine(from)
	if name == engine.Default {
		return eng
	}
	e, err := engine.Get(name)
	if err != nil {
		return eng
	}
	// s.Engines has --st-settings's keys laid over the manifest's already
	// (settings.Resolver); the engine decodes them once for every question
	// below.
	in := &render.Input{Book: book, Settings: s, EngineSettings: s.Engines[name]}
	render.DecodeEngineSettings(e, in)
	if vars != nil {
		in.Vars = vars.Values
	}
	eng.Name = name
	if name == sillytavern.Name {
		eng.Fates, eng.WholeWords = sillytavern.LintView(in) // one read of each entry for both
		eng.Chances = sillytavern.Chances(in)
		eng.LoreFates = engineLoreFates(book, s)
	} else if d, ok := e.(render.Describer); ok {
		eng.Fates = d.Describe(in)
		eng.LoreFates = engineLoreFates(book, s)
	}
	switch name {
	case sillytavern.Name:
		eng.WordRune = sillytavern.WordRune
		eng.NoRequiredCap = true
		eng.NoRecursion = !sillytavern.Recursive(in)
		eng.CardBudget = func(*Context) CardBudget {
			tokens, says := sillytavern.WorldInfoBudget(in)
			return CardBudget{Tokens: tokens, Says: says,
				Then: "so SillyTavern's budget overflows at it whenever it activates: it and every entry after it in Order are left out (unless ignoreBudget)"}
		}
	case yumina.Name:
		eng.WordRune = yumina.WordRune
		eng.AlwaysOutsideBudget = true
		eng.NoRequiredCap = true
		eng.NoRecursion = yumina.RecursionLevels(in) == 0
		eng.WholeWordsNoSpaces = "Yumina's whole words are JavaScript's \\b, which needs an ASCII letter, digit or _ on one side: " +
			"the keyword matches only where one touches it, so in text of its own script it never matches; remove matchWholeWords"
		eng.CardBudget = func(*Context) CardBudget {
			tokens, says := yumina.LorebookBudget(in)
			return CardBudget{Tokens: tokens, Says: says,
				Then: "so unless it is the first matched entry, Yumina's budget stops at it and leaves it and every entry ranked after it out"}
		}
	}
	return eng
}

// engineLoreFates is what lore's engine does with each entry, for
// engine-divergence.
func engineLoreFates(book *schema.Lorebook, s schema.Settings) []render.Fate {
	e, err := engine.Get(engine.Default)
	if err != nil {
		return nil
	}
	d, ok := e.(render.Describer)
	if !ok {
		return nil
	}
	return d.Describe(&render.Input{Book: book, Settings: s})
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
func (c *Context) engineSays() string {
	switch c.Engine.Name {
	case yumina.Name:
		return "Yumina"
	case "sillytavern":
		return "SillyTavern"
	}
	return fmt.Sprintf("the %s engine", c.Engine.Name)
}

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
