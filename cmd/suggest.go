package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/lint"
)

// didYouMean is " (did you mean "x"?)" for the choice closest to got
// (diag.Suggest: case, '-' and '_' aside, or a slip of a letter or two), ""
// when none is close. Every flag value lore checks says it.
func didYouMean(got string, choices []string) string {
	if s := diag.Suggest(got, choices); s != "" && s != got {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// ruleIDs are the ids of lint's rules.
func ruleIDs() []string {
	var ids []string
	for _, r := range lint.Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// flagNames are the flags c takes, its own and those it inherits.
func flagNames(c *cobra.Command) []string {
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	return names
}

// unknownFlagHint is " (did you mean --transcript?)" for pflag's "unknown
// flag: --transcipt", "" for any other error.
func unknownFlagHint(c *cobra.Command, msg string) string {
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return ""
	}
	if s := diag.Suggest(name, flagNames(c)); s != "" {
		return " (did you mean --" + s + "?)"
	}
	return ""
}

// args is the argument check of a command: at least min and at most max
// (-1: any number) arguments, each said in one wording for every command,
// the one render uses: "lint needs a PATH (a lorebook folder or file, or . for
// every lorebook below it); see 'lore lint --help'", not cobra's "requires at
// least 1 arg(s)". what names the argument with its article ("a PATH (…)"),
// one its name alone ("PATH").
func args(min, max int, one, what string) cobra.PositionalArgs {
	return func(c *cobra.Command, got []string) error {
		if err := oneStdin(c, got); err != nil {
			return err
		}
		name, path := c.Name(), c.CommandPath()
		switch {
		case len(got) < min:
			return usageErr("%s needs %s; see '%s --help'", name, what, path)
		case max == 0 && len(got) > 0:
			return usageErr("%s takes no arguments, not %q; see '%s --help'", name, strings.Join(got, " "), path)
		case max >= 0 && len(got) > max:
			return usageErr("%s takes at most %s %s, not %d; see '%s --help'", name, countWord(max), one, len(got), path)
		}
		return nil
	}
}

func countWord(n int) string {
	if n >= 0 && n < 4 {
		return []string{"no", "one", "two", "three"}[n]
	}
	return fmt.Sprint(n)
}
