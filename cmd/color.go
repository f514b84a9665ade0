package cmd

import (
	"os"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// addColorFlag registers --color on c.
func addColorFlag(c *cobra.Command, mode *string) {
	c.Flags().StringVar(mode, "color", "auto", "colour output: auto, always or never (NO_COLOR turns auto off)")
}

// useColor decides colour from --color, NO_COLOR and whether stdout is a terminal.
func useColor(iox *IO, mode string) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		if _, ok := iox.Env("NO_COLOR"); ok {
			return false, nil
		}
		return iox.IsTerminal, nil
	}
	return false, usageErr("--color must be auto, always or never, not %q", mode)
}
