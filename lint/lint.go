// Package lint owns lore's lint rules (SPEC §6): the registry of rules with their
// ids, default severities and docs anchors, the engine that runs them over a loaded
// lorebook, per-entry `lint: {ignore: [...]}` suppressions, and the `.lore.yaml`
// configuration (rule levels, ignored paths, budget defaults). It must not read
// lorebooks (callers pass a loaded *schema.Lorebook), print anything, or re-implement
// matching, activation or budgeting: it asks match and render.
package lint

import (
	"sort"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// Rule is one lint rule. Check is nil for rules whose findings come from elsewhere
// (schema comes from the loader; unused-ignore and lint-directive from the engine):
// they are listed so that `lore rules`, SARIF and configuration know them.
type Rule struct {
	ID          string
	Severity    diag.Severity // default severity
	Description string        // one line, what the rule finds
	Help        string        // what to do about it (SARIF help text)
	Check       func(*Context)
}

// Anchor is the rule's section in docs/rules.md.
func (r *Rule) Anchor() string { return "docs/rules.md#" + r.ID }

// finding is a diagnostic with the entry it belongs to (nil for manifest-level
// findings), so that the entry's `lint: ignore` can suppress it.
type finding struct {
	d     diag.Diagnostic
	entry *schema.Entry
}

// Context is what a rule sees: the lorebook, the variables file, the effective
// settings and shared indexes built at most once per run.
type Context struct {
	Book     *schema.Lorebook
	Vars     *schema.Vars // nil when no --vars was given
	Settings schema.Settings

	rule     *Rule
	findings []finding
	shared   *shared
}

// Report records a finding of the running rule at p, on entry e (may be nil).
func (c *Context) Report(e *schema.Entry, p diag.Pos, format string, args ...any) {
	c.ReportSeverity(c.rule.Severity, e, p, format, args...)
}

// ReportSeverity is Report with a severity other than the rule's default, for the
// few findings that are a milder form of the rule's main case.
func (c *Context) ReportSeverity(sev diag.Severity, e *schema.Entry, p diag.Pos, format string, args ...any) {
	if p.File == "" && e != nil {
		p = e.Pos
	}
	c.findings = append(c.findings, finding{d: diag.New(p, sev, c.rule.ID, format, args...), entry: e})
}

// Run lints book and returns its findings after suppressions and configuration,
// sorted. vars and cfg may be nil.
func Run(book *schema.Lorebook, vars *schema.Vars, cfg *Config) []diag.Diagnostic {
	return RunWith(book, vars, cfg, nil)
}

// RunWith is Run with the loader's diagnostics merged in first, so that entry
// suppressions, rule levels and ignored paths apply to `schema` findings too.
func RunWith(book *schema.Lorebook, vars *schema.Vars, cfg *Config, loaded []diag.Diagnostic) []diag.Diagnostic {
	if cfg == nil {
		cfg = &Config{}
	}
	var fs []finding
	if book != nil {
		owner := entryLocator(book)
		for _, d := range loaded {
			fs = append(fs, finding{d: d, entry: owner(d)})
		}
		ctx := &Context{Book: book, Vars: vars, Settings: cfg.Settings(book), shared: &shared{}}
		for i := range registry {
			r := &registry[i]
			if r.Check == nil {
				continue
			}
			ctx.rule = r
			r.Check(ctx)
		}
		fs = append(fs, dedupeDuplicateID(loaded, ctx.findings)...)
		fs = suppress(book, fs)
	} else {
		for _, d := range loaded {
			fs = append(fs, finding{d: d})
		}
	}
	out := make([]diag.Diagnostic, 0, len(fs))
	for _, f := range fs {
		d, keep := cfg.apply(f.d)
		if keep {
			out = append(out, d)
		}
	}
	return diag.Sort(out)
}

// dedupeDuplicateID drops lint's own duplicate-id findings when the loader already
// reported duplicate ids, so each duplicate is reported exactly once whichever
// side found it.
func dedupeDuplicateID(loaded []diag.Diagnostic, fs []finding) []finding {
	loaderHas := false
	for _, d := range loaded {
		if d.Rule == "duplicate-id" {
			loaderHas = true
			break
		}
	}
	if !loaderHas {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		if f.d.Rule != "duplicate-id" {
			out = append(out, f)
		}
	}
	return out
}

// entryLocator returns a function that finds the entry a loader diagnostic falls
// in: the last entry of the same file that starts at or before its line (binary
// search, so a file with many schema errors stays linear-logarithmic).
func entryLocator(book *schema.Lorebook) func(diag.Diagnostic) *schema.Entry {
	byFile := map[string][]*schema.Entry{}
	for _, e := range book.Entries {
		byFile[e.Pos.File] = append(byFile[e.Pos.File], e)
	}
	for _, es := range byFile {
		sort.SliceStable(es, func(i, j int) bool { return es[i].Pos.Line < es[j].Pos.Line })
	}
	return func(d diag.Diagnostic) *schema.Entry {
		es := byFile[d.File]
		i := sort.Search(len(es), func(i int) bool { return es[i].Pos.Line > d.Line })
		if i == 0 {
			return nil
		}
		return es[i-1]
	}
}
