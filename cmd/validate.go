package cmd

import "github.com/spf13/cobra"

// TODO(owner: helper) replace this placeholder with the real command.
func newValidateCmd(iox *IO) *cobra.Command {
	return &cobra.Command{Use: "validate", Short: "(not built yet)", RunE: func(*cobra.Command, []string) error {
		return usageErr("validate is not built yet")
	}}
}
