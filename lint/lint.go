// Package lint owns lore's lint rules (SPEC §6): the registry of rules with their
// ids, default severities and docs anchors, the engine that runs them over a loaded
// lorebook, per-entry `lint: {ignore: [...]}` suppressions, what `.lore.yaml`
// says to lint (rule levels, ignored paths; package settings reads the file and
// resolves the settings), baselines, and the
// mechanical fixes of `lore lint --fix`. It must not read lorebooks (callers pass
// a loaded *schema.Lorebook), print anything, or re-implement matching,
// activation or budgeting: it asks match and render.
package lint

import (
	"runtime"
	"sort"
	"sync"

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
	// Fix says what `lore lint --fix` changes for this rule's findings ("" when
	// it changes nothing).
	Fix string
	// Off says the rule runs only when .lore.yaml (or --enable) gives it a
	// level: it answers a question rather than finding a problem.
	Off bool
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
// settings, what it may assume of the engine, and shared indexes built at most
// once per run.
type Context struct {
	Book     *schema.Lorebook
	Vars     *schema.Vars // nil when no --vars was given
	Settings schema.Settings
	Engine   Engine

	rule     *Rule
	findings []finding
	shared   *shared
	// rejected holds the positions of values the loader reported as invalid
	// (a section outside the enum, a depth that is not a number): rules must
	// not reason from them, since the value the entry holds is a default.
	rejected map[diag.Pos]bool
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

// reportGrouped is Report for one of possibly many findings with one cause:
// text output folds those of one group into a line "<group with the count>:
// <subjects>" (see Fold).
func (c *Context) reportGrouped(e *schema.Entry, p diag.Pos, group, subject, format string, args ...any) {
	c.Report(e, p, format, args...)
	d := &c.findings[len(c.findings)-1].d
	d.Group, d.Subject = group, subject
}

// rejectedField reports a field of e whose value the loader rejected.
func (c *Context) rejectedField(e *schema.Entry, fields ...string) bool {
	if len(c.rejected) == 0 {
		return false // the usual case: no field failed to load
	}
	for _, f := range fields {
		if p, ok := e.Fields[f]; ok && c.rejected[p] {
			return true
		}
	}
	return false
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
		rejected := map[diag.Pos]bool{}
		if len(loaded) > 0 { // most books load clean: no entries to sort by position
			owner := entryLocator(book)
			for _, d := range loaded {
				fs = append(fs, finding{d: d, entry: owner(d)})
				if d.Rule == "schema" && d.Severity == diag.Error {
					rejected[d.Pos()] = true
				}
			}
		}
		res := cfg.settings(book)
		ctx := &Context{Book: book, Vars: vars, Settings: res.Settings,
			Engine: engineFor(cfg, book, vars, res.Settings, res.From("contextTokens")),
			shared: &shared{}, rejected: rejected}
		ctx.prepare()
		for i := range registry {
			r := &registry[i]
			if r.Check == nil || r.Off && cfg.Rules[r.ID] == 0 {
				continue // a rule off by default runs only when the configuration gives it a level
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
		if !keep {
			continue
		}
		if f.entry != nil && d.Entry == "" {
			d.Entry = f.entry.ID
		}
		out = append(out, d)
	}
	return diag.Sort(out)
}

// prepare builds, on a book of many entries and a machine of several cores,
// the two largest pieces of lint's work at once: the book's words and
// languages (keyword-in-words) and the keyword index with the trigger graph
// (recursion-loop and the keyword rules). They read the book and write
// separate caches, so the rules that follow find both built and the findings
// are the same as when each is built on first use.
func (c *Context) prepare() {
	if len(c.Book.Entries) < 1000 || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { c.languages() })
	c.triggerGraph()
	wg.Wait()
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
// in: the last entry of the same file that starts at or before its position
// (binary search, so a file with many schema errors stays linear-logarithmic).
// Positions compare by line, then column, so that entries of a minified JSON
// file, all on line 1, are told apart.
func entryLocator(book *schema.Lorebook) func(diag.Diagnostic) *schema.Entry {
	byFile := map[string][]*schema.Entry{}
	for _, e := range book.Entries {
		byFile[e.Pos.File] = append(byFile[e.Pos.File], e)
	}
	before := func(a, b diag.Pos) bool { return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col) }
	for _, es := range byFile {
		sort.SliceStable(es, func(i, j int) bool { return before(es[i].Pos, es[j].Pos) })
	}
	return func(d diag.Diagnostic) *schema.Entry {
		es := byFile[d.File]
		p := d.Pos()
		i := sort.Search(len(es), func(i int) bool { return before(p, es[i].Pos) })
		if i == 0 {
			return nil
		}
		return es[i-1]
	}
}
