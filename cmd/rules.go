package cmd

import "github.com/spf13/cobra"

// TODO(owner: helper) replace this placeholder with the real command.
func newRulesCmd(iox *IO) *cobra.Command {
	return &cobra.Command{Use: "rules", Short: "(not built yet)", RunE: func(*cobra.Command, []string) error {
		return usageErr("rules is not built yet")
	}}
}
