package lint

import (
	"regexp"
	"sort"
	"strings"

	"github.com/lorekit/lore/diag"
)

// getvarRe finds {{getvar::id}} macros in content.
var getvarRe = regexp.MustCompile(`(?i)\{\{getvar::([^}]*)\}\}`)

// hasGetvar says whether s may hold a {{getvar::}} macro, in any case, without
// copying s: the pattern is ASCII and no other letter folds to one of its
// letters, so an ASCII case-insensitive search finds what getvarRe's (?i)
// does.
func hasGetvar(s string) bool {
	const macro = "{{getvar::"
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return false
		}
		if s = s[i:]; len(s) >= len(macro) && strings.EqualFold(s[:len(macro)], macro) {
			return true
		}
		s = s[1:]
	}
}

// checkUndefinedVariable reports conditions on variables that are neither declared
// in the manifest nor given in the variables file: such a condition is always
// false (SPEC §1), so the entry silently never appears. A {{getvar::id}} of an
// unknown variable is left in the prompt as written; that is reported as a warning, since the
// text still goes out.
func checkUndefinedVariable(c *Context) {
	checkUndeclaredValues(c)
	hint := "declare it under the manifest's variables"
	if c.Vars == nil {
		hint += " (or pass --vars with a file that sets it)"
	}
	for _, e := range c.Book.Entries {
		for i := range e.Conditions {
			cond := &e.Conditions[i]
			if cond.VariableID == "" {
				continue // a missing variableId is a schema error
			}
			if v := c.variable(cond.VariableID); !v.declared && !v.given {
				c.Report(e, cond.FieldPos("variableId"), "condition on undefined variable %q is always false, so entry %s is never sent; %s, or fix the id%s",
					cond.VariableID, entryName(e), hint, c.didYouMean(cond.VariableID))
			}
		}
		if !hasGetvar(e.Content) {
			continue
		}
		for _, m := range getvarRe.FindAllStringSubmatchIndex(e.Content, -1) {
			id := strings.TrimSpace(e.Content[m[2]:m[3]])
			if v := c.variable(id); !v.declared && !v.given {
				c.ReportSeverity(warningOf(c), e, e.PosInContent(m[0]), "{{getvar::%s}} names an undefined variable and is sent as written; %s, or fix the id%s", id, hint, c.didYouMean(id))
			}
		}
	}
}

// checkUndeclaredValues reports a value of the variables file for a variable
// the lorebook neither declares nor reads (no condition, no {{getvar}}): it is
// still used (render shows it in the state step), but under that name it
// decides nothing, which is usually a typo of a declared one. A variable the
// lorebook reads without declaring is one the variables file defines, which
// is allowed.
func checkUndeclaredValues(c *Context) {
	if c.Vars == nil {
		return
	}
	read := map[string]bool{}
	for _, e := range c.Book.Entries {
		for i := range e.Conditions {
			read[e.Conditions[i].VariableID] = true
		}
		if hasGetvar(e.Content) {
			for _, m := range getvarRe.FindAllStringSubmatch(e.Content, -1) {
				read[strings.TrimSpace(m[1])] = true
			}
		}
	}
	ids := make([]string, 0, len(c.Vars.Values))
	for id := range c.Vars.Values {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if c.variable(id).declared || read[id] {
			continue
		}
		p := c.Vars.Pos[id]
		if p.File == "" {
			p = diag.Pos{File: c.Vars.Path}
		}
		c.ReportSeverity(warningOf(c), nil, p, "the variables file sets %q, which the lorebook neither declares nor reads: it only shows in the state step; fix the id, or declare it under the manifest's variables%s",
			id, c.didYouMean(id))
	}
}

// didYouMean proposes the declared variable closest to id.
func (c *Context) didYouMean(id string) string {
	best, bestD := "", 3
	try := func(cand string) {
		if cand == id {
			return
		}
		if d := diag.EditDistance(id, cand); d < bestD || (d == bestD && cand < best) {
			best, bestD = cand, d
		}
	}
	for _, v := range c.Book.Manifest.Variables {
		try(v.ID)
	}
	if best == "" || bestD > max(1, len(id)/3) {
		return ""
	}
	return " (did you mean " + quote(best) + "?)"
}
