package cmd

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/lint"
)

type rulesOptions struct {
	format string
}

func newRulesCmd(iox *IO) *cobra.Command {
	opts := &rulesOptions{}
	c := &cobra.Command{
		Use:   "rules",
		Short: "List the lint rules with their default severity and docs",
		Long: `rules lists every rule 'lore lint' knows: its id (what .lore.yaml's rules: and an
entry's lint: {ignore: [...]} name), its default severity, what it finds, and its
section of docs/rules.md, and what 'lore lint --fix' changes for the rules it
can repair.`,
		Example: `  lore rules
  lore rules --format json`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runRules(iox, opts) },
	}
	c.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return c
}

type ruleJSON struct {
	ID          string `json:"id"`
	Severity    string `json:"severity"`
	Description string `json:"description"`
	Help        string `json:"help"`
	Docs        string `json:"docs"`
	Fix         string `json:"fix,omitempty"`
}

func runRules(iox *IO, opts *rulesOptions) error {
	rules := lint.Rules()
	switch opts.format {
	case "json":
		out := make([]ruleJSON, len(rules))
		for i := range rules {
			r := &rules[i]
			out[i] = ruleJSON{ID: r.ID, Severity: r.Severity.String(), Description: r.Description, Help: r.Help, Docs: r.Anchor(), Fix: r.Fix}
		}
		b, err := json.MarshalIndent(struct {
			Rules []ruleJSON `json:"rules"`
		}{out}, "", "  ")
		if err != nil {
			return err
		}
		_, err = iox.Stdout.Write(append(b, '\n'))
		return err
	case "text":
		tw := tabwriter.NewWriter(iox.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RULE\tDEFAULT\tFIX\tFINDS\tDOCS")
		for i := range rules {
			r := &rules[i]
			fix := ""
			if r.Fix != "" {
				fix = "--fix"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Severity, fix, r.Description, r.Anchor())
		}
		return tw.Flush()
	}
	return usageErr("--format must be text or json, not %q", opts.format)
}
