package cmd

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/lint"
	"github.com/lorekit/lore/schema"
)

type lintOptions struct {
	vars    string
	config  string
	format  string
	strict  bool
	color   string
	context int
	// engine is the engine to judge by (--engine); enable the rules that are
	// off by default to run (--enable).
	engine     string
	stSettings string
	enable     []string
	// baseline is the baseline file (--baseline); writeBaseline writes it.
	baseline      string
	writeBaseline bool
	// fix applies the mechanical fixes; with diff they are printed instead.
	fix, diff bool
	// watch runs again on every change (--watch).
	watch bool
}

func newLintCmd(iox *IO) *cobra.Command {
	opts := &lintOptions{}
	c := &cobra.Command{
		Use:   "lint PATH...",
		Short: "Validate lorebooks and run the lint rules",
		Long: `lint loads each PATH (a lorebook folder or file, lore's own or a foreign format),
reports its schema problems as validate does, and runs every rule of 'lore rules':
keyword collisions and overlaps, recursion loops, unreachable entries, undefined
variables and mistyped conditions, broken output-format templates, budget
overruns and more. A folder without lorebook.yaml stands for every lorebook below
it, so 'lore lint .' works at a repository's root. Each finding is one line:

  file:line:col: severity: message [rule-id]

Configuration comes from .lore.yaml, looked up from each PATH's folder upward, or
from --config:

  rules: {keyword-overlap: off, recursion-loop: error}   # off | info | warning | error
  ignore: ["drafts/**"]                                 # glob paths, relative to the file
  tokenizer: cl100k_base                                # defaults for settings the
  contextTokens: 16384                                  #   manifest leaves unset
  responseReserve: 1024

The manifest's settings win over the file's defaults; the flags win over
both, and LORE_CONTEXT, LORE_ENGINE, LORE_CONFIG and LORE_ST_SETTINGS stand
for --context, --engine, --config and --st-settings when they are not given.

An entry can silence a rule for itself with
  lint: {ignore: [keyword-overlap], reason: "the overlap is wanted"}
and an ignore that silences nothing is reported (unused-ignore).

--fix repairs what is mechanical (the rules 'lore rules' marks --fix: joined
keywords split, blank keywords trimmed or dropped, duplicate keywords dropped,
ids renamed to kebab-case with the old id kept as the name) in lore's own YAML
and JSON files, in place and atomically, editing only the values it fixes, so
comments and layout stay; it then prints what is left. --fix --diff prints the
changes as a unified diff and writes nothing. Files of other tools' formats
are never rewritten: import them first.

For CI on an existing repository, --write-baseline records today's findings
(counted per file, entry and rule, in .lore-baseline.json or --baseline FILE)
and --baseline FILE then reports only findings beyond them. SARIF results
carry fingerprints from rule, file and entry, so code scanning follows a
finding when its lines move.

--engine NAME judges by that engine (docs/engines.md) rather than the one the
manifest's settings.engine or the book's format names: what it can never send,
what a whole word is, its budget. engine-divergence, off by default (turn it on
with --enable engine-divergence or in .lore.yaml), lists the entries that
engine activates or places otherwise than lore's.

Three or more findings with one cause (entries without content, keys joined
the same way) are folded into one line of text output; the other formats keep
one result per entry.

Formats: text (default; with colour and the source line on a terminal), json
({"diagnostics": [...]}), sarif (SARIF 2.1.0 for GitHub code scanning) and
github (workflow annotations). Exit codes: 0 clean, 1 errors (or warnings with
--strict), 2 bad usage, a bad .lore.yaml, or a file that cannot be read.`,
		Example: `  lore lint fixtures/eldoria/book
  lore lint book/ --vars vars.yaml --strict
  lore lint book/ --fix --diff
  lore lint book/ --context 32768
  lore lint book/ --engine yumina --enable engine-divergence
  lore lint . --write-baseline && lore lint . --baseline .lore-baseline.json
  lore lint book/ --format sarif > lore.sarif
  lore lint book/ --format github
  lore lint .`,
		Args: args(1, -1, "PATH", "a PATH (a lorebook folder or file, or . for every lorebook below it)"),
		RunE: func(c *cobra.Command, args []string) error {
			if opts.watch {
				return watchLint(iox, opts, args, c.Flags())
			}
			return runLint(iox, opts, args, c.Flags())
		},
	}
	c.Flags().StringVar(&opts.vars, "vars", "", "variables file whose values count as defined (undefined-variable, condition-type)")
	c.Flags().StringVar(&opts.config, "config", "", "use this .lore.yaml instead of looking upward from each PATH")
	c.Flags().StringVar(&opts.format, "format", "text", "output format: "+strings.Join(diag.Formats(), ", "))
	c.Flags().BoolVar(&opts.strict, "strict", false, "exit 1 on warnings too")
	c.Flags().StringVar(&opts.engine, "engine", "", "judge by this engine: "+strings.Join(engine.Names(), ", ")+" (overrides settings.engine)")
	c.Flags().StringVar(&opts.stSettings, "st-settings", "", "SillyTavern's World Info settings (settings.sillytavern as a JSON or YAML file) the sillytavern engine judges by")
	c.Flags().StringSliceVar(&opts.enable, "enable", nil, "run a rule that is off by default (e.g. engine-divergence), at its own level")
	c.Flags().IntVar(&opts.context, "context", 0, "context window in tokens the budget rules assume (overrides settings.contextTokens)")
	c.Flags().BoolVar(&opts.fix, "fix", false, "apply the mechanical fixes (see 'lore rules') to lore's own files, in place")
	c.Flags().BoolVar(&opts.diff, "diff", false, "with --fix: print the fixes as a unified diff and write nothing (exit 1 when there are some)")
	c.Flags().StringVar(&opts.baseline, "baseline", "", "report only findings not in this baseline file (see --write-baseline)")
	addWatchFlag(c.Flags(), &opts.watch)
	c.Flags().BoolVar(&opts.writeBaseline, "write-baseline", false, "write every finding to the baseline file (--baseline, else "+lint.BaselineName+") and exit 0")
	addColorFlag(c, &opts.color)
	addStdinFlag(c, iox)
	return c
}

func runLint(iox *IO, opts *lintOptions, paths []string, flags *pflag.FlagSet) error {
	if opts.diff && !opts.fix {
		return usageErr("--diff shows what --fix would change: use it with --fix")
	}
	if opts.fix && slices.Contains(paths, stdinArg) {
		return usageErr("--fix rewrites files, and - is standard input: pipe it through lore fmt, or name the file")
	}
	if opts.fix && opts.writeBaseline {
		return usageErr("--fix and --write-baseline cannot be used together: fix first, then write the baseline")
	}
	// The settings flags and their LORE_* variables, checked before
	// anything is read.
	res := newResolver(flags)
	if err := res.Check(); err != nil {
		return usageErr("%v", err)
	}
	asked, askedFrom := res.Engine()
	if asked != "" {
		if _, err := engine.Get(asked); err != nil {
			return usageErr("%s: %v%s", askedFrom, err, didYouMean(asked, engine.Names()))
		}
	}
	// No tokenizer is preloaded: the budget rules count tokens only when a
	// book's byte sizes do not already show it fits (lint's fitsByBytes),
	// and decoding the vocabulary costs more CPU than most lints.
	stPath, stFrom := res.EngineSettingsPath()
	if stPath != "" && asked != "" && asked != "sillytavern" {
		return usageErr("%s is for --engine sillytavern, not %s", stFrom, asked)
	}
	for _, id := range opts.enable {
		if r := lint.RuleByID(id); r == nil {
			return usageErr("--enable: unknown rule %q%s; `lore rules` lists the rule ids", id, didYouMean(id, ruleIDs()))
		}
	}
	var baseline *lint.Baseline
	if opts.baseline != "" && !opts.writeBaseline {
		data, err := schema.ReadBytes(opts.baseline)
		if err != nil {
			return usageErr("--baseline %s: %v", opts.baseline, err)
		}
		if baseline, err = lint.ParseBaseline(filepath.Dir(opts.baseline), data); err != nil {
			return usageErr("--baseline %s: %v", opts.baseline, err)
		}
	}
	on, err := useColor(iox, opts.color)
	if err != nil {
		return err
	}
	pr, err := diagPrinter(opts.format, on)
	if err != nil {
		return err
	}

	paths, all, err := expandPaths(paths, treeLorebook)
	if err != nil {
		return err
	}
	unusable := false
	var vars *schema.Vars
	if opts.vars != "" {
		v, ds, err := loadVarsFile(iox, opts.vars)
		all = append(all, ds...)
		if err != nil {
			unusable = true
			all = append(all, schema.ErrorDiagnostics(opts.vars, err)...)
		} else {
			vars = v
		}
	}

	// --st-settings's file is SillyTavern's settings for every book: read
	// and checked once, its problems at their line in it.
	est, ds, err := res.EngineSettings()
	if stPath != "" {
		all = append(all, ds...)
		if err != nil {
			all = append(all, schema.ErrorDiagnostics(stPath, err)...)
		}
		unusable = unusable || err != nil || len(ds) > 0
	}

	// Every configuration is read before any rule runs: a broken one would
	// silently change what is reported, so its problems are shown alone and
	// the run stops with the usage exit code.
	configs := map[string]*lint.Config{} // by config path, each parsed once
	cfgOf := make([]*lint.Config, len(paths))
	for i, p := range paths {
		file, cfgPath, ds, err := res.FileFor(iox.inputName(p))
		if c, ok := configs[cfgPath]; ok {
			cfgOf[i] = c
			continue
		}
		c := &lint.Config{}
		switch {
		case cfgPath == "":
		case err != nil:
			unusable = true
			all = append(all, schema.ErrorDiagnostics(cfgPath, err)...)
		case len(ds) > 0:
			unusable = true
			all = append(all, ds...)
		default:
			c = lint.NewConfig(file)
		}
		if len(opts.enable) > 0 {
			c = c.WithEnabled(opts.enable)
		}
		configs[cfgPath] = c
		cfgOf[i] = c
	}
	if unusable {
		return finishLint(iox, opts, pr, diag.Sort(all), 1, true, 0)
	}

	// One pass of lint over every path; --fix runs it again on the fixed
	// files, so what is printed is what is left.
	before := all // the variables file's and configurations' findings
	pass := func() ([]diag.Diagnostic, int, bool, []*schema.Lorebook, [][]diag.Diagnostic) {
		out := append([]diag.Diagnostic(nil), before...)
		files, bad := 0, unusable
		books := make([]*schema.Lorebook, len(paths))
		found := make([][]diag.Diagnostic, len(paths))
		for i, p := range paths {
			book, ds, err := openBook(iox, p, "--vars")
			if err != nil {
				bad = true
				files++
				out = append(out, lint.RunWith(nil, nil, cfgOf[i], append(ds, schema.ErrorDiagnostics(p, err)...))...)
				continue
			}
			files += max(len(book.Files), 1)
			collectLoad(book)
			r, _ := res.Resolve(book, cfgOf[i].File, est) // its error is Check's, seen above
			books[i], found[i] = book, lint.RunWith(book, vars, cfgOf[i].WithSettings(r).WithEngines(engine.JudgeBy(r.Engine, book)), ds)
			out = append(out, found[i]...)
		}
		return out, files, bad, books, found
	}
	all, files, unusable, books, found := pass()
	if opts.fix {
		fixed, err := fixLint(iox, opts, books, found, baseline)
		if err != nil {
			return err
		}
		if opts.diff {
			if fixed > 0 {
				return exitCode(ExitFindings)
			}
			return nil
		}
		if fixed > 0 {
			all, files, unusable, _, _ = pass()
		}
	}
	all = diag.Sort(all)
	if opts.writeBaseline && !unusable {
		path := opts.baseline
		if path == "" {
			path = lint.BaselineName
		}
		b := lint.NewBaseline(filepath.Dir(path), all)
		if err := canon.WriteFile(path, b.Encode()); err != nil {
			return fmt.Errorf("writing the baseline: %w", err)
		}
		fmt.Fprintf(iox.Stderr, "wrote %d findings of %d entries and files to %s\n", len(all), len(b.Findings), path)
		return nil
	}
	accepted := 0
	if baseline != nil {
		all, accepted = baseline.Filter(all)
	}
	return finishLint(iox, opts, pr, all, files, unusable, accepted)
}

// finishLint prints the findings (folded into one line per cause in text
// output) and the summary, and turns them into the exit code. accepted is how
// many findings the baseline held back.
func finishLint(iox *IO, opts *lintOptions, pr diag.Printer, all []diag.Diagnostic, files int, unusable bool, accepted int) error {
	shown := all
	if opts.format == "text" {
		shown = lint.Fold(all)
	}
	if err := pr.Print(iox.Stdout, shown); err != nil {
		return err
	}
	if opts.format == "text" {
		sum := diag.Summary(all, files)
		if accepted > 0 {
			sum += fmt.Sprintf(" (%d more in the baseline)", accepted)
		}
		iox.Stderr.Write([]byte(sum + "\n"))
	}
	return findingsExit(all, unusable, opts.strict)
}
