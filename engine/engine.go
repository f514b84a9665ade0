// Package engine is the registry of the roleplay engines lore simulates. An
// engine decides activation, placement and assembly (render.Engine) and says
// what it is as data (render.Profile); matching, tokenizing, the budget
// arithmetic, macros, the sentences and the outputs are shared (match,
// tokenize, render, reason, output). The list below is explicit: an engine
// is added by a package of its own under engine/ and one line here. Nothing
// else in lore names an engine: lint, the outputs and the schema's enum read
// the profiles.
package engine

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/engine/sillytavern"
	"github.com/lorekit/lore/engine/yumina"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// engines lists every engine's profile, in the order `--help` shows them,
// the default first.
var engines = []*render.Profile{
	&lore.Profile,
	&yumina.Profile,
	&sillytavern.Profile,
}

func init() { schema.SetEngines(Names()) }

// Default is the engine used when neither --engine nor settings.engine names
// one (and the book's format has no engine of its own).
const Default = lore.Name

// Profiles lists the engines' profiles, the default first.
func Profiles() []*render.Profile { return engines }

// Lookup is the profile of the engine with that name.
func Lookup(name string) (*render.Profile, bool) {
	for _, p := range engines {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// Title is the name of the tool an engine simulates as people write it
// ("SillyTavern"), for messages; the name itself when it is unknown.
func Title(name string) string {
	if p, ok := Lookup(name); ok {
		return p.Title
	}
	return name
}

// Names lists the engines' names, the default first.
func Names() []string {
	out := make([]string, len(engines))
	for i, p := range engines {
		out[i] = p.Name
	}
	return out
}

// Get returns the engine with that name.
func Get(name string) (render.Engine, error) {
	if p, ok := Lookup(name); ok {
		return p.New(), nil
	}
	return nil, fmt.Errorf("unknown engine %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// ForFormat is the engine whose behaviour a foreign format's books are
// written for (its profile lists the format), "" for lore's own files and
// for formats whose engine lore does not simulate.
func ForFormat(format string) string {
	for _, p := range engines {
		for _, f := range p.Formats {
			if f == format {
				return p.Name
			}
		}
	}
	return ""
}

// Choose is the engine a command uses for a lorebook: the one asked for
// (--engine, a test case's engine), else the manifest's settings.engine, else
// the engine of the format the book was read from (byFormat then says so, for
// commands that tell the user), else Default.
func Choose(asked string, book *schema.Lorebook) (name string, byFormat bool) {
	switch {
	case asked != "":
		return asked, false
	case book.Manifest.Settings.Engine != "":
		return book.Manifest.Settings.Engine, false
	}
	if native := ForFormat(book.Format); native != "" {
		return native, true
	}
	return Default, false
}

// JudgeBy is the engine a lint judges book by (asked, else settings.engine,
// else the engine of the book's format, else lore's; a name the registry
// does not know, which the schema reports, judges by lore's) and lore's own
// engine, which lint compares it with. lint, lore lsp and lore serve all
// choose so.
func JudgeBy(asked string, book *schema.Lorebook) (judge, base render.Engine) {
	base, _ = Get(Default)
	name, _ := Choose(asked, book)
	judge, err := Get(name)
	if err != nil {
		judge = base
	}
	return judge, base
}
