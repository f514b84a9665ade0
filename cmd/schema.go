package cmd

import "github.com/spf13/cobra"

// TODO(owner: helper) replace this placeholder with the real command.
func newSchemaCmd(iox *IO) *cobra.Command {
	return &cobra.Command{Use: "schema", Short: "(not built yet)", RunE: func(*cobra.Command, []string) error {
		return usageErr("schema is not built yet")
	}}
}
