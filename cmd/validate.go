package cmd

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/testrun"
)

type validateOptions struct {
	format string
	color  string
	kind   string
}

func newValidateCmd(iox *IO) *cobra.Command {
	opts := &validateOptions{}
	c := &cobra.Command{
		Use:   "validate PATH...",
		Short: "Check lorebooks, transcripts and variables files against the schema",
		Long: `validate checks each PATH against lore's JSON Schema (see 'lore schema') and
for load errors, printing one line per problem:

  file:line:col: error: message [schema]

A PATH is a lorebook folder, a lorebook file (lore's own YAML/JSON or a foreign
format such as a SillyTavern world or a character card), a transcript, a
variables file or a test file of 'lore test'. What a file is, is decided by its
content unless --kind says:
  - a .jsonl file, a mapping with messages: (or summary:, memory:, pending:),
    or a list of {role, content} messages is a transcript (a list whose
    items have fields only entries have, such as id or section, is a list of
    entries, even when they have a role);
  - a mapping with cases: is a test file;
  - a mapping with none of the manifest, entry, transcript or test keys is a
    variables file (variable id: value);
  - anything else, and every folder with a lorebook.yaml, is a lorebook.
A folder without lorebook.yaml stands for the lorebooks and transcripts below
it (so 'lore validate .' works at a repository's root); other files there, such
as package.json, are passed over, and variables files are checked only when named.

Exit codes: 0 clean, 1 errors found, 2 bad usage or a file that cannot be read
or parsed. Text output goes to stdout and a summary line to stderr; with
--format json stdout holds exactly one {"diagnostics": [...]} object.`,
		Example: `  lore validate fixtures/eldoria/book
  lore validate book/ transcript.yaml vars.yaml --format json
  lore validate --kind vars state.yaml
  lore validate .`,
		Args: args(1, -1, "PATH", "a PATH (a lorebook, transcript, variables or test file, a folder, or .)"),
		RunE: func(c *cobra.Command, args []string) error {
			return runValidate(iox, opts, args)
		},
	}
	c.Flags().StringVar(&opts.format, "format", "text", "output format: "+strings.Join(diag.Formats(), ", "))
	c.Flags().StringVar(&opts.kind, "kind", "auto", "what every PATH is: auto, lorebook, transcript, vars or test")
	addColorFlag(c, &opts.color)
	addStdinFlag(c, iox)
	return c
}

func runValidate(iox *IO, opts *validateOptions, paths []string) error {
	on, err := useColor(iox, opts.color)
	if err != nil {
		return err
	}
	switch opts.kind {
	case "auto", "lorebook", "transcript", "vars", "test":
	default:
		return usageErr("--kind must be auto, lorebook, transcript, vars or test, not %q%s", opts.kind, didYouMean(opts.kind, []string{"auto", "lorebook", "transcript", "vars", "test"}))
	}
	pr, err := diagPrinter(opts.format, on)
	if err != nil {
		return err
	}
	paths, all, err := expandPaths(paths, treeLorebook, treeTranscript)
	if err != nil {
		return err
	}
	files, unreadable := 0, false
	for _, p := range paths {
		var ds []diag.Diagnostic
		var n int
		if p == stdinArg {
			ds, n, err = validateStdin(iox, opts.kind)
		} else {
			ds, n, err = validatePath(p, opts.kind)
		}
		files += n
		all = append(all, ds...)
		if err != nil {
			unreadable = true
			all = append(all, schema.ErrorDiagnostics(p, err)...)
		}
	}
	all = diag.Sort(all)
	if err := pr.Print(iox.Stdout, all); err != nil {
		return err
	}
	if opts.format == "text" {
		iox.Stderr.Write([]byte(diag.Summary(all, files) + "\n"))
	}
	errs, _, _ := diag.Count(all)
	switch {
	case unreadable:
		return exitCode(ExitUsage)
	case errs > 0:
		return exitCode(ExitFindings)
	}
	return nil
}

// validatePath loads one path as the kind given or detected, returning its
// diagnostics and how many files it read. A file is read and parsed once:
// detecting its kind, recognising a foreign format and loading share it.
func validatePath(p, kind string) ([]diag.Diagnostic, int, error) {
	st, err := os.Stat(p)
	jsonl := strings.EqualFold(strings.TrimPrefix(lastExt(p), "."), "jsonl")
	if err != nil || st.IsDir() || jsonl || kind != "auto" {
		// Folders are lorebooks; a .jsonl chat is not one document; a kind
		// given by flag is loaded as that kind, whatever the file holds.
		if kind == "auto" {
			kind = "lorebook"
			if jsonl && err == nil && !st.IsDir() {
				kind = "transcript"
			}
		}
		return loadAs(p, kind)
	}
	src, err := formats.ReadSource(p)
	if err != nil {
		return nil, 1, err
	}
	switch src.Kind() {
	case schema.KindTranscript:
		_, ds := schema.LoadTranscriptDoc(src.Doc())
		return ds, 1, nil
	case schema.KindVars:
		_, ds := schema.LoadVarsDoc(src.Doc())
		return ds, 1, nil
	case schema.KindTest:
		_, ds, err := testrun.Load(p)
		return ds, 1, err
	}
	lb, ds, err := src.Open()
	return ds, fileCount(lb), err
}

// validateStdin is validatePath for -: standard input, as the kind given or
// detected from its content and --stdin-filename (chat.jsonl).
func validateStdin(iox *IO, kind string) ([]diag.Diagnostic, int, error) {
	name, data, err := iox.readStdin("the PATH")
	if err != nil {
		return nil, 1, err
	}
	src := formats.SourceFrom(name, data)
	if kind == "auto" {
		switch k := sourceKind(src); k {
		case kindTranscript, kindVars, kindTest:
			kind = k
		}
	}
	if kind == kindTranscript {
		_, ds, err := schema.LoadTranscriptBytes(name, data)
		return ds, 1, err
	}
	if kind != "lorebook" && kind != "auto" && (src.DocErr != nil || src.Doc() == nil) {
		return nil, 1, stdinDocErr(src)
	}
	switch kind {
	case kindVars:
		_, ds := schema.LoadVarsDoc(src.Doc())
		return ds, 1, nil
	case kindTest:
		_, ds, err := testrun.LoadDoc(src.Doc())
		return ds, 1, err
	}
	_, ds, err := src.Open()
	return ds, 1, err
}

// loadAs loads a path as the named kind, reading it for itself.
func loadAs(p, kind string) ([]diag.Diagnostic, int, error) {
	switch kind {
	case "transcript":
		_, ds, err := schema.LoadTranscript(p)
		return ds, 1, err
	case "vars":
		_, ds, err := schema.LoadVars(p)
		return ds, 1, err
	case "test":
		_, ds, err := testrun.Load(p)
		return ds, 1, err
	}
	lb, ds, err := formats.Open(p)
	return ds, fileCount(lb), err
}

func fileCount(lb *schema.Lorebook) int {
	if lb != nil && len(lb.Files) > 0 {
		return len(lb.Files)
	}
	return 1
}

func lastExt(p string) string {
	if i := strings.LastIndexAny(p, `./\`); i >= 0 && p[i] == '.' {
		return p[i:]
	}
	return ""
}
