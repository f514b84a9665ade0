package cmd

import "github.com/spf13/cobra"

// TODO(owner: helper) replace this placeholder with the real command.
func newTokensCmd(iox *IO) *cobra.Command {
	return &cobra.Command{Use: "tokens", Short: "(not built yet)", RunE: func(*cobra.Command, []string) error {
		return usageErr("tokens is not built yet")
	}}
}
