package yumina

import (
	"strconv"
	"strings"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/schema"
)

// Yumina's conditions compare values as JavaScript does, which is not lore's
// SPEC §1:
//   - eq and neq are strict: the string "7" is not the number 7; a list or an
//     object equals another when both print as the same JSON;
//   - gt, gte, lt and lte hold only when both sides are numbers;
//   - contains is membership for a list and substring for a string, when the
//     value is a string too;
//   - a variable id may be a dot path into a list or object (inventory.0,
//     npcs.aria.mood, inventory.length);
//   - a variable that is not set makes every condition false, neq included;
//   - conditionLogic other than "all" means any.

// conditionsHold evaluates an entry's conditions and says why, one reason
// (none when it has no conditions).
func conditionsHold(e *entry, vars map[string]any) (bool, reason.Reason) {
	if len(e.Conditions) == 0 {
		return true, reason.Reason{}
	}
	all := e.ConditionLogic == "" || e.ConditionLogic == "all"
	n := 0
	parts := make([]reason.JSCondition, len(e.Conditions))
	for i, c := range e.Conditions {
		parts[i] = evalCondition(c, vars)
		if parts[i].Holds {
			n++
		}
	}
	holds := n > 0
	logic := "any"
	if all {
		holds, logic = n == len(e.Conditions), "all"
	}
	code := reason.YuminaConditionsHold
	if !holds {
		code = reason.YuminaConditionsFail
	}
	return holds, reason.New(code, "conditions", e.FieldPos("conditions"), reason.P("logic", logic), reason.P("conditions", parts))
}

// evalCondition is one condition with its verdict.
func evalCondition(c schema.Condition, vars map[string]any) reason.JSCondition {
	out := reason.JSCondition{Variable: c.VariableID, Operator: c.Operator, Value: jsonStringify(c.Value)}
	cur, ok := valueAt(vars, c.VariableID)
	if !ok {
		return out
	}
	out.Set, out.Current = true, jsonStringify(cur)
	out.Holds, out.Note = compare(c.Operator, cur, c.Value)
	return out
}

// compare applies one operator; the note (a reason.JSCondition note) says
// why a comparison a creator might expect to hold does not.
func compare(op string, cur, target any) (bool, string) {
	switch op {
	case "eq", "neq":
		eq := valuesEqual(cur, target)
		note := ""
		if !eq && looseEqual(cur, target) {
			note = "strict"
		}
		return eq == (op == "eq"), note
	case "gt", "gte", "lt", "lte":
		a, okA := jsNumber(cur)
		b, okB := jsNumber(target)
		if !okA || !okB {
			return false, "numbers-only"
		}
		switch op {
		case "gt":
			return a > b, ""
		case "gte":
			return a >= b, ""
		case "lt":
			return a < b, ""
		}
		return a <= b, ""
	case "contains":
		switch x := cur.(type) {
		case []any:
			for _, item := range x {
				if valuesEqual(item, target) {
					return true, ""
				}
			}
			return false, ""
		case string:
			t, ok := target.(string)
			if !ok {
				return false, "string-in-string"
			}
			return strings.Contains(x, t), ""
		}
		return false, "list-or-string"
	}
	return false, "unknown-operator"
}

// valuesEqual is Yumina's equality: JavaScript's === for numbers, strings,
// booleans and null, and equal JSON for two lists or objects.
func valuesEqual(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if x, ok := jsNumber(a); ok {
		y, ok := jsNumber(b)
		return ok && x == y
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case []any, map[string]any:
		switch b.(type) {
		case []any, map[string]any:
			return jsonStringify(a) == jsonStringify(b)
		}
	}
	return false
}

// looseEqual is equality up to a number written as a string, which lore's
// own engine accepts and Yumina does not.
func looseEqual(a, b any) bool {
	num := func(v any) (float64, bool) {
		if s, ok := v.(string); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			return f, err == nil
		}
		return jsNumber(v)
	}
	x, okA := num(a)
	y, okB := num(b)
	return okA && okB && x == y
}

// valueAt reads a variable by id or dot path, as Yumina's getByPath: the id
// itself first, then each segment into an object (by key) or a list (by
// index, or length).
func valueAt(vars map[string]any, path string) (any, bool) {
	if path == "" {
		return nil, false
	}
	if v, ok := vars[path]; ok {
		return v, true
	}
	var cur any = vars
	for _, part := range strings.Split(path, ".") {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[part]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			if part == "length" {
				cur = float64(len(x))
				continue
			}
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) || strconv.Itoa(i) != part {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
