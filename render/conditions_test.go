package render

import (
	"testing"

	"github.com/lorekit/lore/schema"
)

func TestEvalCondition(t *testing.T) {
	values := map[string]any{
		"phase":     "act2",
		"gold":      12.0,
		"goldText":  "12",
		"name":      "Seraphina",
		"inventory": []any{"torch", "rope", 3.0},
		"flags":     map[string]any{"met-maren": true},
		"brave":     true,
		"nothing":   nil,
	}
	tests := []struct {
		variable, op string
		value        any
		want         bool
	}{
		{"phase", "eq", "act2", true},
		{"phase", "eq", "Act2", false}, // strings compare exactly
		{"phase", "neq", "act1", true},
		{"phase", "neq", "act2", false},
		{"gold", "eq", 12.0, true},
		{"gold", "eq", "12", true},       // numeric string compares as a number
		{"goldText", "eq", 12.0, true},   // both ways
		{"goldText", "eq", "12.0", true}, // two numeric strings
		{"gold", "eq", "twelve", false},
		{"gold", "gt", 10.0, true},
		{"gold", "gt", 12.0, false},
		{"gold", "gte", 12.0, true},
		{"gold", "gte", 13.0, false},
		{"gold", "lt", "13", true},
		{"gold", "lt", 12.0, false},
		{"gold", "lte", 12.0, true},
		{"gold", "lte", 11.0, false},
		{"goldText", "gt", "9", true},  // numerically, not "12" < "9" as strings
		{"phase", "gt", "act1", false}, // gt on strings is false
		{"name", "contains", "raph", true},
		{"name", "contains", "RAPH", false},
		{"inventory", "contains", "rope", true},
		{"inventory", "contains", "sword", false},
		{"inventory", "contains", "3", true}, // membership compares numbers numerically
		{"inventory", "contains", "torc", false},
		{"flags", "contains", "met-maren", true},
		{"flags", "contains", "met-seraphina", false},
		{"gold", "contains", 1.0, false}, // contains on a number
		{"brave", "eq", true, true},
		{"brave", "eq", "true", false},
		{"nothing", "eq", nil, true},
		{"nothing", "neq", nil, false},
		{"inventory", "eq", []any{"torch", "rope", "3"}, true},
		{"inventory", "eq", []any{"torch"}, false},
		{"missing", "eq", "x", false},
		{"missing", "neq", "x", false}, // undeclared and ungiven: false whatever the operator
		{"gold", "between", 1.0, false},
	}
	for _, tt := range tests {
		c := schema.Condition{VariableID: tt.variable, Operator: tt.op, Value: tt.value}
		if got := EvalCondition(c, values); got != tt.want {
			t.Errorf("%s %s %v = %v, want %v", tt.variable, tt.op, tt.value, got, tt.want)
		}
	}
}

func TestConditionsHold(t *testing.T) {
	values := map[string]any{"gold": 12.0}
	gt := func(n float64) schema.Condition {
		return schema.Condition{VariableID: "gold", Operator: "gt", Value: n}
	}
	tests := []struct {
		logic string
		conds []schema.Condition
		want  bool
	}{
		{"all", nil, true},
		{"all", []schema.Condition{gt(1), gt(2)}, true},
		{"all", []schema.Condition{gt(1), gt(20)}, false},
		{"any", []schema.Condition{gt(100), gt(2)}, true},
		{"any", []schema.Condition{gt(100), gt(20)}, false},
		{"", []schema.Condition{gt(1), gt(20)}, false}, // default all
	}
	for _, tt := range tests {
		e := &schema.Entry{ConditionLogic: tt.logic, Conditions: tt.conds}
		if got := ConditionsHold(e, values); got != tt.want {
			t.Errorf("%s %v = %v, want %v", tt.logic, tt.conds, got, tt.want)
		}
	}
}

func TestCurrentValues(t *testing.T) {
	book := &schema.Lorebook{}
	book.Manifest.Variables = []schema.Variable{{ID: "phase", Default: "act1"}, {ID: "gold", Default: 0.0}}
	got := CurrentValues(book, map[string]any{"gold": 5.0, "extra": "x"})
	if got["phase"] != "act1" || got["gold"] != 5.0 || got["extra"] != "x" || len(got) != 3 {
		t.Errorf("CurrentValues = %v", got)
	}
	if len(CurrentValues(nil, nil)) != 0 {
		t.Error("nil book")
	}
}
