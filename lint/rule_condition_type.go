package lint

import (
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// checkConditionType reports conditions that compare the wrong kinds of value:
// gt/lt/gte/lte need numbers, contains needs a string or list variable, and a
// value must fit the variable's declared type (or, undeclared, the type of its
// value in the variables file). Such a condition is silently false at render time.
func checkConditionType(c *Context) {
	for _, e := range c.Book.Entries {
		for i := range e.Conditions {
			cond := &e.Conditions[i]
			if msg := conditionTypeProblem(c.variable(cond.VariableID), cond); msg != "" {
				field := "value"
				if _, ok := cond.Fields["value"]; !ok {
					field = "operator"
				}
				c.Report(e, cond.FieldPos(field), "%s", msg)
			}
		}
	}
}

func conditionTypeProblem(v variable, cond *schema.Condition) string {
	id, op, val := cond.VariableID, cond.Operator, cond.Value
	switch op {
	case "gt", "lt", "gte", "lte":
		if _, ok := number(val); !ok {
			return op + " compares numbers, but the value " + describe(val) + " is not a number; use eq, neq or contains for text"
		}
		if v.typ != "" && v.typ != "number" {
			return op + " on " + v.typ + " variable \"" + id + "\" is never true: it compares numbers; declare the variable type: number, or use eq/neq"
		}
	case "contains":
		switch v.typ {
		case "number", "boolean":
			return "contains on " + v.typ + " variable \"" + id + "\" is never true: contains is for strings (substring) and lists (membership); use eq or gt/lt"
		case "object":
			return "contains on object variable \"" + id + "\" is not defined: contains is for strings (substring) and lists (membership)"
		case "string":
			if _, ok := val.(string); !ok {
				return "contains on string variable \"" + id + "\" needs a string value, not " + describe(val)
			}
		}
	case "eq", "neq":
		if v.typ == "" {
			return ""
		}
		if !fitsType(v.typ, val) {
			return op + " compares " + v.typ + " variable \"" + id + "\" with " + describe(val) + ", which is not a " + v.typ + "; write a " + v.typ + " value" + containsHint(v.typ, val)
		}
	}
	return ""
}

func containsHint(typ string, val any) string {
	if typ == "list" {
		if _, isList := val.([]any); !isList {
			return " (to test membership, use contains)"
		}
	}
	return ""
}

// fitsType says a condition value can equal a variable of that type. Numbers and
// numeric strings compare as numbers (SPEC §1), so they fit number and string
// variables alike.
func fitsType(typ string, val any) bool {
	switch typ {
	case "number":
		_, ok := number(val)
		return ok
	case "string":
		switch val.(type) {
		case string, float64, int:
			return true
		}
		return false
	case "boolean":
		_, ok := val.(bool)
		return ok
	case "list":
		_, ok := val.([]any)
		return ok
	case "object":
		_, ok := val.(map[string]any)
		return ok
	}
	return true
}

func warningOf(c *Context) diag.Severity {
	if c.rule.Severity < diag.Warning {
		return c.rule.Severity
	}
	return diag.Warning
}
