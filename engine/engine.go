// Package engine is the registry of the roleplay engines lore simulates. An
// engine decides activation, placement and assembly (render.Engine); matching,
// tokenizing, the budget arithmetic, macros and the outputs are shared (match,
// tokenize, render, output). The list below is explicit: an engine is added by
// one line here and a package of its own under engine/.
package engine

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/engine/sillytavern"
	"github.com/lorekit/lore/engine/yumina"
	"github.com/lorekit/lore/render"
)

// Default is the engine used when neither --engine nor settings.engine names one.
const Default = lore.Name

// engines lists every engine, by name, in the order `--help` shows them.
var engines = []struct {
	name string
	new  func() render.Engine
}{
	{lore.Name, func() render.Engine { return lore.New() }},
	{yumina.Name, func() render.Engine { return yumina.New() }},
	{sillytavern.Name, func() render.Engine { return sillytavern.New() }},
}

// Names lists the engines' names, the default first.
func Names() []string {
	out := make([]string, len(engines))
	for i, e := range engines {
		out[i] = e.name
	}
	return out
}

// Get returns the engine with that name.
func Get(name string) (render.Engine, error) {
	for _, e := range engines {
		if e.name == name {
			return e.new(), nil
		}
	}
	return nil, fmt.Errorf("unknown engine %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// ForFormat is the engine whose behaviour a foreign format's books are written
// for, when lore simulates it ("" for lore's own files and for formats whose
// engine lore does not simulate).
func ForFormat(format string) string {
	var name string
	switch format {
	case "sillytavern", "card-v2", "card-v3", "lorebook-v3":
		name = "sillytavern"
	}
	for _, e := range engines {
		if e.name == name {
			return name
		}
	}
	return ""
}
