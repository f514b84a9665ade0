package render

import (
	"strings"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/schema"
)

// Condition operators of SPEC §1.
const (
	OpEq       = "eq"
	OpNeq      = "neq"
	OpGt       = "gt"
	OpLt       = "lt"
	OpGte      = "gte"
	OpLte      = "lte"
	OpContains = "contains"
)

// EvalCondition reports whether one condition holds for the current values
// (CurrentValues). The rules (SPEC §1):
//   - a variable that is neither declared nor given makes the condition false,
//     whatever the operator (neq included);
//   - when both sides compare as numbers (numbers, or numeric strings such as
//     "12"), eq/neq/gt/lt/gte/lte compare numerically: "12" eq 12 holds;
//   - otherwise eq/neq compare exactly (strings case-sensitively, lists and
//     objects element by element with the same rules), and gt/lt/gte/lte are
//     false;
//   - contains is substring for a string variable (the value printed as text:
//     contains 3 finds "a3"), membership for a list (numbers compared as numbers),
//     a key for an object, and false for anything else;
//   - an unknown operator is false (the schema rejects it).
func EvalCondition(c schema.Condition, values map[string]any) bool {
	v, ok := values[c.VariableID]
	if !ok {
		return false
	}
	switch c.Operator {
	case OpEq:
		return equalValues(v, c.Value)
	case OpNeq:
		return !equalValues(v, c.Value)
	case OpGt, OpLt, OpGte, OpLte:
		a, okA := asNumber(v)
		b, okB := asNumber(c.Value)
		if !okA || !okB {
			return false
		}
		switch c.Operator {
		case OpGt:
			return a > b
		case OpLt:
			return a < b
		case OpGte:
			return a >= b
		default:
			return a <= b
		}
	case OpContains:
		switch x := v.(type) {
		case string:
			if c.Value == nil {
				return false
			}
			return strings.Contains(x, valueText(c.Value))
		case []any:
			for _, e := range x {
				if equalValues(e, c.Value) {
					return true
				}
			}
			return false
		case map[string]any:
			s, isStr := c.Value.(string)
			if !isStr {
				return false
			}
			_, has := x[s]
			return has
		}
	}
	return false
}

// equalValues is eq: numerically when both sides are numbers or numeric
// strings, else exactly.
func equalValues(a, b any) bool {
	if x, ok := asNumber(a); ok {
		if y, ok := asNumber(b); ok {
			return x == y
		}
		return false
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalValues(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// ConditionsHold reports whether an entry's conditions let it in: every
// condition under conditionLogic "all" (the default), at least one under
// "any". An entry without conditions always passes.
func ConditionsHold(e *schema.Entry, values map[string]any) bool {
	holds, _ := evalConditions(e, values)
	return holds
}

// evalConditions is ConditionsHold with each condition's own result, which
// the explanation needs.
func evalConditions(e *schema.Entry, values map[string]any) (bool, []bool) {
	results := make([]bool, len(e.Conditions))
	trueCount := 0
	for i, c := range e.Conditions {
		if results[i] = EvalCondition(c, values); results[i] {
			trueCount++
		}
	}
	if len(e.Conditions) == 0 {
		return true, results
	}
	if strings.EqualFold(e.ConditionLogic, "any") {
		return trueCount > 0, results
	}
	return trueCount == len(e.Conditions), results
}

// condition is one condition with its verdict and the variable's current
// value, for the conditions' reasons.
func condition(c schema.Condition, holds bool, values map[string]any, book *schema.Lorebook, vars map[string]any) reason.Condition {
	v, set := values[c.VariableID]
	return reason.Condition{Variable: c.VariableID, Operator: c.Operator, Value: c.Value, Holds: holds,
		Current: v, Set: set, Source: valueSource(book, vars, c.VariableID)}
}

// EvalConditions explains an entry's conditions: nil when it has none.
// When they fail, the reason names only the conditions that decided it.
func EvalConditions(e *schema.Entry, values map[string]any, book *schema.Lorebook, vars map[string]any) (bool, []reason.Reason) {
	if len(e.Conditions) == 0 {
		return true, nil
	}
	anyLogic := strings.EqualFold(e.ConditionLogic, "any")
	holds, results := evalConditions(e, values)
	var trueOnes, falseOnes []reason.Condition
	for i, c := range e.Conditions {
		d := condition(c, results[i], values, book, vars)
		if results[i] {
			trueOnes = append(trueOnes, d)
		} else {
			falseOnes = append(falseOnes, d)
		}
	}
	code, cs := reason.ConditionsFail, falseOnes
	switch {
	case holds && anyLogic:
		code, cs = reason.ConditionsHoldAny, trueOnes
	case holds:
		code, cs = reason.ConditionsHold, trueOnes
	case anyLogic:
		code = reason.ConditionsFailAny
	}
	return holds, []reason.Reason{reason.New(code, "conditions", e.FieldPos("conditions"), reason.P("conditions", cs))}
}
