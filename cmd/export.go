package cmd

import "github.com/spf13/cobra"

// TODO(owner: helper) replace this placeholder with the real command.
func newExportCmd(iox *IO) *cobra.Command {
	return &cobra.Command{Use: "export", Short: "(not built yet)", RunE: func(*cobra.Command, []string) error {
		return usageErr("export is not built yet")
	}}
}
