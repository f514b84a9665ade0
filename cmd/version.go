package cmd

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
)

func newVersionCmd(iox *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print lore's version, commit and build date",
		Args:  args(0, 0, "", ""),
		RunE: func(c *cobra.Command, _ []string) error {
			fmt.Fprintf(iox.Stdout, "lore %s (commit %s, built %s, %s %s/%s)\n",
				Version, Commit, Date, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
