package cmd

import "github.com/spf13/cobra"

// TODO(owner: helper) replace this placeholder with the real command.
func newInitCmd(iox *IO) *cobra.Command {
	return &cobra.Command{Use: "init", Short: "(not built yet)", RunE: func(*cobra.Command, []string) error {
		return usageErr("init is not built yet")
	}}
}
