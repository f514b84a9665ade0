package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/testrun"
)

type testOptions struct {
	format  string
	run     string
	engine  string
	update  bool
	verbose bool
	color   string
	config  string
}

func newTestCmd(iox *IO) *cobra.Command {
	opts := &testOptions{}
	c := &cobra.Command{
		Use:   "test [PATH...]",
		Short: "Run a lorebook's regression tests and prompt snapshots",
		Long: `test runs the test files found under each PATH (default: the current folder):
lore.test.yaml, and every YAML or JSON file directly in a tests/ folder. A test
file names its lorebook and holds cases; each case renders the lorebook against
a chat (inline or a transcript file), with variables, an engine and its
settings, and checks the prompt (docs/testing.md is the reference):

  lorebook: ../book
  cases:
    - name: the tavern comes up
      transcript: [{role: user, content: "Who runs this tavern?"}]
      expect:
        active: [sleeping-stag]
        entries: {sleeping-stag: {step: 10, depth: 2}}
        tokens: {total: {max: 2000}}
        snapshot: tavern

Expectations: active, inactive, activeExactly; per entry step, depth,
position, recursion, trigger; order; tokens (total, section, cut, dropped);
prompt (contains, notContains); snapshot (the rendered prompt, compared with
tests/__snapshots__/NAME.txt or .json); frequency over runs: N seeds; and
turns:, each with its own expect, for engines that carry state between turns.
'lore schema test' prints the JSON Schema of test files.

A folder stands for every test file below it; a lorebook (folder or file)
for the test files beside it that name it. Cases run in parallel; the report
lists them in file order. Each failure points at its expectation's line and
says what was expected, what happened, and why (the --explain reasons of the
entries involved), with a diff for a snapshot.

Formats: text (default), json, junit (JUnit XML for CI dashboards), tap (TAP
version 14) and github (annotations at the expectation's line).
Exit codes: 0 every case passed, 1 a case failed (or its lorebook has errors),
2 bad usage, or a test file or input that cannot be read or is not valid.`,
		Example: `  lore test
  lore test fixtures/eldoria
  lore test book/ --run tavern
  lore test -u                       # write or update snapshots
  lore test --format junit > lore-test.xml
  lore test --engine sillytavern`,
		RunE: func(c *cobra.Command, args []string) error { return runTest(iox, opts, args, c.Flags()) },
	}
	f := c.Flags()
	f.StringVar(&opts.format, "format", "text", "output format: "+strings.Join(testrun.Formats(), ", "))
	f.StringVar(&opts.run, "run", "", "run only the cases whose name matches this regular expression")
	f.StringVar(&opts.engine, "engine", "", "render every case with this engine: "+strings.Join(engine.Names(), ", "))
	f.BoolVarP(&opts.update, "update", "u", false, "write missing snapshots and update changed ones (and say which)")
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "list the cases that passed too (text format)")
	f.StringVar(&opts.config, "config", "", "use this .lore.yaml for every lorebook instead of looking upward from each")
	addColorFlag(c, &opts.color)
	return c
}

func runTest(iox *IO, opts *testOptions, paths []string, flags *pflag.FlagSet) error {
	on, err := useColor(iox, opts.color)
	if err != nil {
		return err
	}
	w, err := testrun.NewWriter(opts.format, testrun.WriterOptions{Color: on.color, Excerpts: on.excerpts, Verbose: opts.verbose, Source: diag.FileSource()})
	if err != nil {
		return usageErr("--format: %v%s", err, didYouMean(opts.format, testrun.Formats()))
	}
	res := newResolver(flags)
	asked, askedFrom := res.Engine()
	o := testrun.Options{Engine: asked, Update: opts.update, Settings: res}
	if asked != "" {
		if _, err := engine.Get(asked); err != nil {
			return usageErr("%s: %v%s", askedFrom, err, didYouMean(asked, engine.Names()))
		}
	}
	if opts.run != "" {
		if o.Run, err = regexp.Compile(opts.run); err != nil {
			return usageErr("--run: %v", err)
		}
	}
	if p, _ := res.ConfigPath(); p != "" {
		// A broken configuration would silently change every case's
		// settings: its problems are shown alone, with the usage exit code.
		_, _, ds, err := res.FileFor(p)
		if err != nil {
			ds = append(ds, schema.ErrorDiagnostics(p, err)...)
		}
		if len(ds) > 0 {
			if err := printErrors(iox.Stderr, ds, on); err != nil {
				return err
			}
			return exitCode(ExitUsage)
		}
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	targets, err := testTargets(paths)
	if err != nil {
		return err
	}
	cases := &caseBar{iox: iox}
	o.Progress = cases
	rep := testrun.Run(targets, o)
	cases.bar.done()
	if len(rep.Cases) == 0 && opts.run != "" {
		return usageErr("--run %q matches no case", opts.run)
	}
	if err := w.Write(iox.Stdout, rep); err != nil {
		return err
	}
	if code := rep.ExitCode(); code != 0 {
		return exitCode(code)
	}
	return nil
}

// testTargets finds the test files each path stands for: a folder, every
// test file below it (walked as lint walks a repository); a lorebook folder
// or file, the test files beside it that name it; a test file, itself.
func testTargets(paths []string) ([]testrun.Target, error) {
	var out []testrun.Target
	for _, p := range paths {
		st, err := os.Stat(p)
		switch {
		case err != nil:
			out = append(out, testrun.Target{Path: p}) // the loader says why
		case st.IsDir() && hasManifest(p):
			ts, err := testsBeside(p)
			if err != nil {
				return nil, err
			}
			out = append(out, ts...)
		case st.IsDir():
			found, _, err := walkTree(p, map[string]bool{treeTest: true})
			if err != nil {
				return nil, err
			}
			if len(found) == 0 {
				return nil, usageErr("%s holds no test files (lore.test.yaml, or YAML files in a tests/ folder)", p)
			}
			for _, f := range found {
				out = append(out, testrun.Target{Path: f})
			}
		case testrun.IsTestFile(p) || isTestDoc(p):
			out = append(out, testrun.Target{Path: p})
		default:
			ts, err := testsBeside(p)
			if err != nil {
				return nil, err
			}
			out = append(out, ts...)
		}
	}
	return out, nil
}

// testsBeside lists the test files next to a lorebook: lore.test.yaml and
// tests/*.yaml in the folder that holds it. The runner keeps those that name it.
func testsBeside(book string) ([]testrun.Target, error) {
	dir := filepath.Dir(filepath.Clean(book))
	var out []testrun.Target
	for _, pattern := range []string{"lore.test.*", filepath.Join("tests", "*")} {
		ms, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, m := range ms {
			if st, err := os.Stat(m); err == nil && !st.IsDir() && testrun.IsTestFile(m) {
				out = append(out, testrun.Target{Path: m, Only: book})
			}
		}
	}
	if len(out) == 0 {
		return nil, usageErr("no test files beside the lorebook %s (lore.test.yaml or tests/*.yaml in %s)", book, dir)
	}
	return out, nil
}

// isTestDoc says whether a file named on the command line is a test file by
// content (a mapping with cases:), for test files named otherwise; a YAML or
// JSON file that does not parse counts as one, so that its errors are reported.
func isTestDoc(p string) bool {
	root, _, err := schema.ParseFile(p)
	if err != nil {
		switch strings.ToLower(filepath.Ext(p)) {
		case ".yaml", ".yml", ".json":
			return true
		}
		return false
	}
	if root.Kind != yaml.MappingNode {
		return false
	}
	fs, _ := schema.Fields(p, root)
	for _, f := range fs {
		if f.Key == "cases" {
			return true
		}
	}
	return false
}

// caseBar draws lore test's progress over its cases (progress.go).
type caseBar struct {
	iox *IO
	bar *progress
}

func (c *caseBar) Start(n int) { c.bar = startProgress(c.iox, n, "testing") }
func (c *caseBar) Done()       { c.bar.add(1) }
