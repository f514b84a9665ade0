package formats

import (
	"embed"
	"fmt"
	"slices"
	"strings"
)

// The JSON Schemas of the foreign files creators edit by hand (lore schema
// sillytavern|card-v2|card-v3): for editors' JSON support and SchemaStore,
// without lore. They describe the files as the tools write and read them,
// leniently where real files differ (unknown keys are kept by those tools,
// so they are allowed); lore's own reading of these formats is the
// importer's, not these schemas'. Draft-07, which SchemaStore's schemas use.
//
//go:embed schemas/sillytavern.schema.json schemas/card-v2.schema.json schemas/card-v3.schema.json
var foreignSchemas embed.FS

// SchemaNames are the foreign formats' schemas, by the name lore schema takes.
var SchemaNames = []string{"sillytavern", "card-v2", "card-v3"}

// SchemaJSON is a foreign format's schema text.
func SchemaJSON(name string) ([]byte, error) {
	if !slices.Contains(SchemaNames, name) {
		return nil, fmt.Errorf("unknown schema %q (want %s)", name, strings.Join(SchemaNames, ", "))
	}
	return foreignSchemas.ReadFile("schemas/" + name + ".schema.json")
}
