package lint

import (
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// run is Run as cmd calls it: judging the book by the engine the registry
// gives it (settings.engine, else its format's, else lore's).
func run(book *schema.Lorebook, vars *schema.Vars, cfg *Config) []diag.Diagnostic {
	return runWith(book, vars, cfg, nil)
}

// runWith is RunWith as cmd calls it.
func runWith(book *schema.Lorebook, vars *schema.Vars, cfg *Config, loaded []diag.Diagnostic) []diag.Diagnostic {
	return RunWith(book, vars, withEngines(cfg, "", book), loaded)
}

// withEngines is cfg (nil: none) judging book by the engine asked for, else
// the one the registry gives it, with lore's engine as the base.
func withEngines(cfg *Config, asked string, book *schema.Lorebook) *Config {
	if cfg == nil {
		cfg = &Config{}
	}
	if book == nil {
		return cfg
	}
	base, _ := engine.Get(engine.Default)
	name, _ := engine.Choose(asked, book)
	judge, err := engine.Get(name)
	if err != nil {
		judge = base
	}
	return cfg.WithEngines(judge, base)
}

var _ render.Engine // the engines lint is given are render's
