package lint

import (
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// suppress applies every entry's `lint: {ignore: [...], reason: ...}`: a finding of
// an ignored rule on that entry is dropped. Suppressions are themselves checked, the
// way golangci-lint checks //nolint: an ignore that suppressed nothing is reported
// (unused-ignore), as are unknown rule ids and an ignore without a reason
// (lint-directive), because a silent, unexplained suppression outlives the problem
// it was written for.
func suppress(book *schema.Lorebook, fs []finding) []finding {
	type key struct {
		e    *schema.Entry
		rule string
	}
	ignored := map[key]bool{} // value: used
	for _, e := range book.Entries {
		for _, k := range e.Lint.Ignore {
			ignored[key{e, strings.TrimSpace(k.Text)}] = false
		}
	}
	if len(ignored) == 0 {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		if f.entry != nil {
			k := key{f.entry, f.d.Rule}
			if _, ok := ignored[k]; ok {
				ignored[k] = true
				continue
			}
		}
		out = append(out, f)
	}
	for _, e := range book.Entries {
		if len(e.Lint.Ignore) == 0 {
			continue
		}
		_, quietUnused := ignored[key{e, UnusedIgnore}]
		for _, k := range e.Lint.Ignore {
			id := strings.TrimSpace(k.Text)
			switch {
			case byID(id) == nil:
				out = append(out, finding{entry: e, d: diag.New(k.Pos, byID(LintDirective).Severity, LintDirective,
					"lint.ignore names unknown rule %q%s; `lore rules` lists the rule ids", id, ruleHint(id))})
			case !ignored[key{e, id}] && !quietUnused:
				out = append(out, finding{entry: e, d: diag.New(k.Pos, byID(UnusedIgnore).Severity, UnusedIgnore,
					"lint.ignore of %q on entry %q suppresses nothing; remove it", id, e.ID)})
			}
		}
		if strings.TrimSpace(e.Lint.Reason) == "" {
			p := e.Lint.Pos
			if p.Line == 0 {
				p = e.FieldPos("lint")
			}
			out = append(out, finding{entry: e, d: diag.New(p, byID(LintDirective).Severity, LintDirective,
				"lint.ignore on entry %q has no reason; add `reason:` saying why the finding does not apply", e.ID)})
		}
	}
	return out
}
