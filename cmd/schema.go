package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/schema"
)

func newSchemaCmd(iox *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "schema [" + strings.Join(schema.SchemaNames, "|") + "]",
		Short: "Print the JSON Schema lore checks files against",
		Long: `schema prints one of the JSON Schemas (draft 2020-12) that validate and lint
check files against, so editors can complete and check lorebooks as you type:

  lorebook    a manifest (lorebook.yaml) or a single-file lorebook (default)
  entry       one entry (an entry file of a folder lorebook)
  transcript  a chat to render against
  vars        a variables file
  test        a test file of 'lore test' (tests/*.yaml, lore.test.yaml)

lorebook refers to entry as "entry.schema.json": save both side by side, e.g.

  lore schema lorebook > schema/lorebook.schema.json
  lore schema entry > schema/entry.schema.json

then start a YAML file with
  # yaml-language-server: $schema=schema/lorebook.schema.json`,
		Args:      args(0, 1, "schema name", ""),
		ValidArgs: schema.SchemaNames,
		RunE: func(c *cobra.Command, args []string) error {
			name := "lorebook"
			if len(args) == 1 {
				name = args[0]
			}
			b, err := schema.SchemaJSON(name)
			if err != nil {
				return usageErr("%v%s", err, didYouMean(name, schema.SchemaNames))
			}
			_, err = iox.Stdout.Write(b)
			return err
		},
	}
}
