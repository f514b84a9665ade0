package cmd

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
)

func newSchemaCmd(iox *IO) *cobra.Command {
	names := append(append([]string(nil), schema.SchemaNames...), formats.SchemaNames...)
	return &cobra.Command{
		Use:   "schema [" + strings.Join(names, "|") + "]",
		Short: "Print the JSON Schema lore checks files against",
		Long: `schema prints one of the JSON Schemas (draft 2020-12) that validate and lint
check files against, so editors can complete and check lorebooks as you type:

  lorebook    a manifest (lorebook.yaml) or a single-file lorebook (default)
  entry       one entry (an entry file of a folder lorebook)
  transcript  a chat to render against
  vars        a variables file
  test        a test file of 'lore test' (tests/*.yaml, lore.test.yaml)

and, for the other tools' files creators edit by hand (draft-07, as
SchemaStore's; docs/editors.md gives the catalog entries and file patterns):

  sillytavern  a SillyTavern world info file
  card-v2      a Character Card V2 (JSON), with its character_book
  card-v3      a Character Card V3 (JSON), with its character_book

lorebook refers to entry as "entry.schema.json": save both side by side, e.g.

  lore schema lorebook > schema/lorebook.schema.json
  lore schema entry > schema/entry.schema.json

then start a YAML file with
  # yaml-language-server: $schema=schema/lorebook.schema.json`,
		Args:      args(0, 1, "schema name", ""),
		ValidArgs: names,
		RunE: func(c *cobra.Command, args []string) error {
			name := "lorebook"
			if len(args) == 1 {
				name = args[0]
			}
			b, err := schema.SchemaJSON(name)
			if slices.Contains(formats.SchemaNames, name) {
				b, err = formats.SchemaJSON(name)
			}
			if err != nil {
				return usageErr("unknown schema %q (want %s)%s", name, strings.Join(names, ", "), didYouMean(name, names))
			}
			_, err = iox.Stdout.Write(b)
			return err
		},
	}
}
