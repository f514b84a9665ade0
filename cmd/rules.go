package cmd

import (
	"encoding/json"
	"io"
	"strings"

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
entry's lint: {ignore: [...]} name), its default level (off for a rule that runs
only when enabled with --enable or .lore.yaml), whether 'lore lint --fix' repairs
it, and what it finds, in a table 100 columns wide; each rule's section of
docs/rules.md is docs/rules.md#<id>. --format json adds each rule's help, docs
anchor, the level it reports at and what --fix changes.`,
		Example: `  lore rules
  lore rules --format json`,
		Args: args(0, 0, "", ""),
		RunE: func(*cobra.Command, []string) error { return runRules(iox, opts) },
	}
	c.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return c
}

type ruleJSON struct {
	ID string `json:"id"`
	// Severity is the level the rule reports at; Default is it, or "off"
	// for a rule that runs only when enabled.
	Severity    string `json:"severity"`
	Default     string `json:"default"`
	Description string `json:"description"`
	Help        string `json:"help"`
	Docs        string `json:"docs"`
	Fix         string `json:"fix,omitempty"`
}

// rulesWidth is the width the text table keeps to, a wide terminal's
// usual minimum.
const rulesWidth = 100

// defaultLevel is how a rule starts: its severity, or "off".
func defaultLevel(r *lint.Rule) string {
	if r.Off {
		return "off"
	}
	return r.Severity.String()
}

func runRules(iox *IO, opts *rulesOptions) error {
	rules := lint.Rules()
	switch opts.format {
	case "json":
		out := make([]ruleJSON, len(rules))
		for i := range rules {
			r := &rules[i]
			out[i] = ruleJSON{ID: r.ID, Severity: r.Severity.String(), Default: defaultLevel(r), Description: r.Description, Help: r.Help, Docs: r.Anchor(), Fix: r.Fix}
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
		return rulesTable(iox.Stdout, rules)
	}
	return usageErr("--format must be text or json, not %q%s", opts.format, didYouMean(opts.format, []string{"text", "json"}))
}

// rulesTable prints the rules in rulesWidth columns: the description
// wrapped under its heading, and the docs named once, since every rule's
// section is docs/rules.md#<rule>.
func rulesTable(w io.Writer, rules []lint.Rule) error {
	idW := len("RULE")
	for i := range rules {
		idW = max(idW, textWidth(rules[i].ID))
	}
	const levelW, fixW = len("warning"), len("--fix")
	indent := idW + 2 + levelW + 2 + fixW + 2
	var b strings.Builder
	row := func(id, level, fix, finds string) {
		lines := wrapWords(finds, rulesWidth-indent)
		b.WriteString(strings.TrimRight(pad(id, idW+2)+pad(level, levelW+2)+pad(fix, fixW+2)+lines[0], " ") + "\n")
		for _, l := range lines[1:] {
			b.WriteString(strings.Repeat(" ", indent) + l + "\n")
		}
	}
	row("RULE", "DEFAULT", "FIX", "FINDS")
	for i := range rules {
		r := &rules[i]
		fix := ""
		if r.Fix != "" {
			fix = "--fix"
		}
		row(r.ID, defaultLevel(r), fix, r.Description)
	}
	b.WriteString("\ndocs/rules.md#RULE documents each rule. off: the rule runs only when turned on\n" +
		"(lore lint --enable RULE, or a level in .lore.yaml's rules:).\n")
	_, err := io.WriteString(w, b.String())
	return err
}
