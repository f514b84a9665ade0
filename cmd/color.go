package cmd

import (
	"os"

	"github.com/lorekit/lore/diag"
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

// looks is how text output looks: colour, and the source line with a caret
// under each finding.
type looks struct {
	color, excerpts bool
	// source gives the lines for excerpts (standard input's too); nil:
	// the files'.
	source func(file string, line int) (string, bool)
}

// useColor decides from --color, NO_COLOR and whether stdout is a terminal.
// NO_COLOR and --color never take the colour away, nothing else: a reader
// at a terminal still gets the source line and the caret (no-color.org asks
// only that no ANSI colour is added).
func useColor(iox *IO, mode string) (looks, error) {
	src := iox.sourceLines()
	switch mode {
	case "always":
		return looks{color: true, excerpts: true, source: src}, nil
	case "never":
		return looks{excerpts: iox.IsTerminal, source: src}, nil
	case "auto", "":
		if _, ok := iox.Env("NO_COLOR"); ok {
			return looks{excerpts: iox.IsTerminal, source: src}, nil
		}
		return looks{color: iox.IsTerminal, excerpts: iox.IsTerminal, source: src}, nil
	}
	return looks{}, usageErr("--color must be auto, always or never, not %q%s", mode, didYouMean(mode, []string{"auto", "always", "never"}))
}

// diagOptions are the text printer's options for these looks.
func (l looks) diagOptions() diag.Options {
	src := l.source
	if src == nil {
		src = diag.FileSource()
	}
	return diag.Options{Color: l.color, Excerpts: l.excerpts, Source: src}
}
