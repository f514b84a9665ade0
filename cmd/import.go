package cmd

import "github.com/spf13/cobra"

// TODO(owner: helper) replace this placeholder with the real command.
func newImportCmd(iox *IO) *cobra.Command {
	return &cobra.Command{Use: "import", Short: "(not built yet)", RunE: func(*cobra.Command, []string) error {
		return usageErr("import is not built yet")
	}}
}
