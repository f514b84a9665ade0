package cmd

import "github.com/spf13/cobra"

// TODO(owner: helper) replace this placeholder with the real command.
func newRenderCmd(iox *IO) *cobra.Command {
	return &cobra.Command{Use: "render", Short: "(not built yet)", RunE: func(*cobra.Command, []string) error {
		return usageErr("render is not built yet")
	}}
}
