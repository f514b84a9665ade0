package lint

import (
	"regexp"
	"strings"
)

// getvarRe finds {{getvar::id}} macros in content.
var getvarRe = regexp.MustCompile(`(?i)\{\{getvar::([^}]*)\}\}`)

// checkUndefinedVariable reports conditions on variables that are neither declared
// in the manifest nor given in the variables file: such a condition is always
// false (SPEC §1), so the entry silently never appears. A {{getvar::id}} of an
// unknown variable is left in the prompt as written; that is reported as a warning, since the
// text still goes out.
func checkUndefinedVariable(c *Context) {
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
				c.Report(e, cond.FieldPos("variableId"), "condition on undefined variable %q is always false, so entry %q is never sent; %s, or fix the id",
					cond.VariableID, e.ID, hint)
			}
		}
		if !strings.Contains(strings.ToLower(e.Content), "{{getvar::") {
			continue
		}
		for _, m := range getvarRe.FindAllStringSubmatchIndex(e.Content, -1) {
			id := strings.TrimSpace(e.Content[m[2]:m[3]])
			if v := c.variable(id); !v.declared && !v.given {
				c.ReportSeverity(warningOf(c), e, e.PosInContent(m[0]), "{{getvar::%s}} names an undefined variable and is sent as written; %s, or fix the id", id, hint)
			}
		}
	}
}
