package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
)

type fmtOptions struct {
	write bool
	check bool
}

func newFmtCmd(iox *IO) *cobra.Command {
	opts := &fmtOptions{}
	c := &cobra.Command{
		Use:   "fmt PATH...",
		Short: "Rewrite lore YAML/JSON files in one canonical layout",
		Long: `fmt formats lore's own lorebook files: a single-file lorebook, a manifest, an
entry file, or every file of a folder lorebook. It puts the keys of each entry in
the order of the reference (id, name, content, role, ... lint, extensions, then
any other key) and the manifest's keys likewise (entries last), writes
multi-line strings as literal blocks (|), short keyword lists as [a, b], and
indents by 2 spaces. YAML stays YAML and keeps its comments; JSON stays JSON.
It never changes what a file says: default values you wrote stay.

Before anything is printed or written, the formatted text is parsed and loaded
again and compared with the original; if anything differs, fmt refuses (exit 2)
and names the first difference. Files with YAML anchors or merge keys are
left alone, with a note (they are skipped, not a failure); foreign formats
(convert those with 'lore import') are refused.

Without flags the formatted text goes to stdout (with a "# file: PATH" line
before each file when there are several). -w rewrites the files that change,
atomically, and lists them on stderr. --check writes nothing, lists the files
that are not formatted and exits 1 if there are any (for CI and pre-commit).

Exit codes: 0 done (or all formatted, with --check); 1 files not formatted
(--check) or a lorebook with errors (printed; nothing is written); 2 bad usage,
an unreadable file or a refusal.`,
		Example: `  lore fmt book/entries/tavern.yaml
  lore fmt -w book
  lore fmt --check book world.yaml`,
		Args: args(1, -1, "PATH", "a PATH (a lorebook file or folder, or . for every lorebook below it)"),
		RunE: func(c *cobra.Command, args []string) error {
			if opts.write && opts.check {
				return usageErr("-w and --check cannot be used together")
			}
			if opts.write && slices.Contains(args, stdinArg) {
				return usageErr("-w rewrites files, and - is standard input: without -w the formatted text goes to stdout")
			}
			return runFmt(iox, opts, args)
		},
	}
	c.Flags().BoolVarP(&opts.write, "write", "w", false, "rewrite the files in place")
	c.Flags().BoolVar(&opts.check, "check", false, "list files that are not formatted; exit 1 if any")
	addStdinFlag(c, iox)
	return c
}

// fmtTarget is one file to format and how its top level is read.
type fmtTarget struct {
	path string
	role canon.SourceRole
	// doc is the file as parsed to check it, for a lorebook named as one
	// file: formatting goes on from it instead of parsing the file again.
	doc *schema.Doc
	// raw is what standard input held, for -: there is no file to read.
	raw []byte
}

// fmtResult is one formatted file.
type fmtResult struct {
	path      string
	orig, out []byte
}

func runFmt(iox *IO, opts *fmtOptions, paths []string) error {
	targets, code := fmtTargets(iox, paths)
	if code != ExitOK {
		return exitCode(code)
	}
	// Format everything before writing anything: one refusal writes nothing.
	var results []fmtResult
	refused := false
	for i, t := range targets {
		var orig, out []byte
		var err error
		switch {
		case t.raw != nil:
			orig, out, err = canon.FormatDocBytes(t.doc, t.raw, t.role)
			targets[i].doc = nil
		case t.doc != nil:
			orig, out, err = canon.FormatDoc(t.doc, t.role)
			targets[i].doc = nil
		default:
			orig, out, err = canon.FormatFile(t.path, t.role)
		}
		var re *canon.RefusalError
		if errors.As(err, &re) && re.Skip {
			fmt.Fprintf(iox.Stderr, "lore: %v (skipped)\n", err) // as the README promises: not a failure
			continue
		}
		if err != nil {
			fmtReport(iox, t.path, err)
			refused = true
			continue
		}
		results = append(results, fmtResult{path: t.path, orig: orig, out: out})
	}
	if refused {
		return exitCode(ExitUsage)
	}
	switch {
	case opts.check:
		dirty := false
		for _, r := range results {
			if !bytes.Equal(r.orig, r.out) {
				fmt.Fprintln(iox.Stdout, r.path)
				dirty = true
			}
		}
		if dirty {
			return exitCode(ExitFindings)
		}
	case opts.write:
		return writeFormatted(iox, results)
	default:
		for _, r := range results {
			if len(results) > 1 {
				fmt.Fprintf(iox.Stdout, "# file: %s\n", r.path)
			}
			if _, err := iox.Stdout.Write(r.out); err != nil {
				return err
			}
		}
	}
	return nil
}

// fmtWriteFile is canon.WriteFile; a test replaces it to fail half-way.
var fmtWriteFile = canon.WriteFile

// writeFormatted rewrites the files that change. Files cannot be replaced
// all at once, so every one is checked first (a read-only file is refused,
// and nothing is written); if a write still fails, the message says which
// files were written before it and which were not.
func writeFormatted(iox *IO, results []fmtResult) error {
	var changed []fmtResult
	for _, r := range results {
		if !bytes.Equal(r.orig, r.out) {
			changed = append(changed, r)
		}
	}
	refused := false
	for _, r := range changed {
		if err := canon.Writable(r.path); err != nil {
			fmt.Fprintf(iox.Stderr, "lore: %v\n", err)
			refused = true
		}
	}
	if refused {
		return usageErr("nothing was written")
	}
	for i, r := range changed {
		if err := fmtWriteFile(r.path, r.out); err != nil {
			if i == 0 {
				return usageErr("%v; nothing was written", err)
			}
			var rest []string
			for _, n := range changed[i:] {
				rest = append(rest, n.path)
			}
			return usageErr("%v; %d of %d files were formatted before it (listed above), these were not: %s",
				err, i, len(changed), strings.Join(rest, ", "))
		}
		fmt.Fprintf(iox.Stderr, "formatted %s\n", r.path)
	}
	return nil
}

// fmtTargets loads every PATH (so that foreign formats, load errors and schema
// errors are caught before formatting) and lists the files to format, each
// once. It prints what is wrong and returns a non-zero exit code if anything is.
func fmtTargets(iox *IO, paths []string) ([]fmtTarget, int) {
	var targets []fmtTarget
	seen := map[string]bool{}
	add := func(p string, role canon.SourceRole, doc *schema.Doc, raw ...byte) {
		key := p
		if abs, err := filepath.Abs(p); err == nil {
			key = abs
		}
		if !seen[key] {
			seen[key] = true
			targets = append(targets, fmtTarget{path: p, role: role, doc: doc, raw: raw})
		}
	}
	code := ExitOK
	worse := func(c int) {
		if c > code {
			code = c
		}
	}
	for _, p := range expandFmtPaths(iox, paths, worse) {
		if p.path == stdinArg {
			if src, ok := fmtStdin(iox, worse); ok {
				_, raw, _ := iox.readStdin("the PATH") // read already: what it held
				add(src.Path, canon.RoleAuto, src.Doc(), raw...)
			}
			continue
		}
		st, err := os.Stat(p.path)
		if err != nil {
			fmtReport(iox, p.path, &schema.ParseError{Pos: diag.Pos{File: p.path}, Msg: "no such file or folder"})
			worse(ExitUsage)
			continue
		}
		// A file is read and parsed once: its kind, its load and its
		// formatting all use src.
		var src *formats.Source
		var lb *schema.Lorebook
		var ds []diag.Diagnostic
		if st.IsDir() {
			lb, ds, err = schema.Load(p.path)
		} else if src, err = formats.ReadSource(p.path); err == nil {
			lb, ds, err = src.Open()
		}
		if err != nil && p.found && !loreNative(p.path) {
			continue // a broken foreign file in a tree: lint reports it, fmt never formats it
		}
		if err != nil {
			fmtReport(iox, p.path, err)
			worse(ExitUsage)
			continue
		}
		if lb.Format != "lore" {
			if p.found {
				continue // a foreign lorebook in a tree: not fmt's to format
			}
			fmt.Fprintf(iox.Stderr, "lore: %s is a %s file, not lore's own format: lore fmt leaves it alone; convert it with 'lore import %s -o book.yaml'\n", p.path, lb.Format, p.path)
			worse(ExitUsage)
			continue
		}
		if src != nil {
			if k := src.Kind(); k != schema.KindLorebook {
				fmt.Fprintf(iox.Stderr, "lore: %s is a %s file: lore fmt formats lorebook files only\n", p.path, k)
				worse(ExitUsage)
				continue
			}
		}
		if errs, _, _ := diag.Count(ds); errs > 0 {
			pr, _ := diagPrinter("text", looks{})
			pr.Print(iox.Stderr, onlyErrors(ds))
			fmt.Fprintf(iox.Stderr, "lore: %s has errors; fix them before formatting (nothing was written)\n", p.path)
			worse(ExitFindings)
			continue
		}
		if !st.IsDir() {
			add(p.path, canon.RoleAuto, src.Doc())
			continue
		}
		// A folder lorebook: the manifest first (lb.Files' first file), then its
		// entry files.
		for i, f := range lb.Files {
			role := canon.RoleEntries
			if i == 0 {
				role = canon.RoleManifest
			}
			add(f, role, nil)
		}
	}
	return targets, code
}

// fmtStdin reads - for fmt: a lore lorebook file without errors (else it
// says why and returns false), formatted as the file --stdin-filename names.
func fmtStdin(iox *IO, worse func(int)) (*formats.Source, bool) {
	src, err := iox.stdinSource("the PATH")
	if err == nil && src.Doc() == nil {
		err = stdinDocErr(src)
	}
	var lb *schema.Lorebook
	var ds []diag.Diagnostic
	if err == nil {
		lb, ds, err = src.Open()
	}
	switch {
	case err != nil:
		fmtReport(iox, iox.inputName(stdinArg), err)
		worse(ExitUsage)
	case lb.Format != "lore":
		fmt.Fprintf(iox.Stderr, "lore: %s is a %s file, not lore's own format: lore fmt leaves it alone; convert it with 'lore import'\n", src.Path, lb.Format)
		worse(ExitUsage)
	case src.Kind() != schema.KindLorebook:
		fmt.Fprintf(iox.Stderr, "lore: %s is a %s file: lore fmt formats lorebook files only\n", src.Path, src.Kind())
		worse(ExitUsage)
	default:
		if errs, _, _ := diag.Count(ds); errs > 0 {
			pr, _ := diagPrinter("text", looks{})
			pr.Print(iox.Stderr, onlyErrors(ds))
			fmt.Fprintf(iox.Stderr, "lore: %s has errors; fix them before formatting\n", src.Path)
			worse(ExitFindings)
			return nil, false
		}
		return src, true
	}
	return nil, false
}

// fmtPath is a path to format; found says it was found in a folder the user
// named (a tree of lorebooks), not named itself.
type fmtPath struct {
	path  string
	found bool
}

// expandFmtPaths replaces each folder without a manifest by the lorebooks
// below it, as lint does, so that 'lore fmt --check .' checks a repository.
func expandFmtPaths(iox *IO, paths []string, worse func(int)) []fmtPath {
	var out []fmtPath
	for _, p := range paths {
		found, notes, err := expandPaths([]string{p}, treeLorebook)
		for _, n := range notes {
			fmt.Fprintf(iox.Stderr, "lore: %s: %s\n", n.File, n.Message)
		}
		if err != nil {
			var ee *exitError
			if errors.As(err, &ee) && ee.err != nil {
				fmt.Fprintf(iox.Stderr, "lore: %v\n", ee.err)
			}
			worse(ExitUsage)
			continue
		}
		for _, f := range found {
			out = append(out, fmtPath{path: f, found: f != p})
		}
	}
	return out
}

// loreNative says whether a file would be read as lore's own format (YAML,
// or JSON no foreign format claims), whether or not it loads.
func loreNative(p string) bool {
	if st, err := os.Stat(p); err != nil || st.IsDir() {
		return true
	}
	src, err := formats.ReadSource(p)
	return err != nil || !src.Foreign()
}

// onlyErrors are the error-level diagnostics of ds.
func onlyErrors(ds []diag.Diagnostic) []diag.Diagnostic {
	var only []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			only = append(only, d)
		}
	}
	return only
}

// fmtReport prints a load error or a refusal.
func fmtReport(iox *IO, path string, err error) {
	var re *canon.RefusalError
	if errors.As(err, &re) {
		fmt.Fprintf(iox.Stderr, "lore: %v\n", err)
		return
	}
	pr, _ := diagPrinter("text", looks{})
	pr.Print(iox.Stderr, schema.ErrorDiagnostics(path, err))
}
