package render

import (
	"fmt"
	"strings"

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

// describeCondition is one condition as a sentence part, with the variable's
// current value: `story-phase eq "act1" is false (story-phase is "act2", from
// the variables file)`.
func describeCondition(c schema.Condition, holds bool, values map[string]any, book *schema.Lorebook, vars map[string]any) string {
	verdict := "false"
	if holds {
		verdict = "true"
	}
	s := fmt.Sprintf("condition %s %s %s is %s", c.VariableID, c.Operator, quoteValue(c.Value), verdict)
	v, ok := values[c.VariableID]
	if !ok {
		return s + fmt.Sprintf(" (%s is %s)", c.VariableID, valueSource(book, vars, c.VariableID))
	}
	return s + fmt.Sprintf(" (%s is %s, %s)", c.VariableID, quoteValue(v), valueSource(book, vars, c.VariableID))
}

// EvalConditions explains an entry's conditions: nil when it has none.
// When they fail, the reason starts "left out:" and names only the conditions
// that decided it.
func EvalConditions(e *schema.Entry, values map[string]any, book *schema.Lorebook, vars map[string]any) (bool, []string) {
	if len(e.Conditions) == 0 {
		return true, nil
	}
	anyLogic := strings.EqualFold(e.ConditionLogic, "any")
	holds, results := evalConditions(e, values)
	var trueOnes, falseOnes []string
	for i, c := range e.Conditions {
		d := describeCondition(c, results[i], values, book, vars)
		if results[i] {
			trueOnes = append(trueOnes, d)
		} else {
			falseOnes = append(falseOnes, d)
		}
	}
	switch {
	case holds && anyLogic:
		return true, []string{"conditions hold (conditionLogic any): " + strings.Join(trueOnes, "; ")}
	case holds:
		return true, []string{"conditions hold: " + strings.Join(trueOnes, "; ")}
	case anyLogic:
		return false, []string{"left out: no condition holds (conditionLogic any): " + strings.Join(falseOnes, "; ")}
	default:
		return false, []string{"left out: " + strings.Join(falseOnes, "; ")}
	}
}
