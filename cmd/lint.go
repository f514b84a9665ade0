package cmd

import "github.com/spf13/cobra"

// TODO(owner: helper) replace this placeholder with the real command.
func newLintCmd(iox *IO) *cobra.Command {
	return &cobra.Command{Use: "lint", Short: "(not built yet)", RunE: func(*cobra.Command, []string) error {
		return usageErr("lint is not built yet")
	}}
}
