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
	"github.com/lorekit/lore/schema"
)

// Default is the engine used when neither --engine nor settings.engine names one.
const Default = lore.Name

// engines lists every engine, by name, in the order `--help` shows them.
var engines = []struct {
	name, title string // title: the tool's name as people write it
	new         func() render.Engine
}{
	{lore.Name, "lore", func() render.Engine { return lore.New() }},
	{yumina.Name, "Yumina", func() render.Engine { return yumina.New() }},
	{sillytavern.Name, "SillyTavern", func() render.Engine { return sillytavern.New() }},
}

// Title is the name of the tool an engine simulates as people write it
// ("SillyTavern"), for messages; the name itself when it is unknown.
func Title(name string) string {
	for _, e := range engines {
		if e.name == name {
			return e.title
		}
	}
	return name
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
