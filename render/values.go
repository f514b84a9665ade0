package render

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/schema"
)

// CurrentValues are the variables' values for this render: each declared
// variable's manifest default, overridden by the variables file. Variables
// only in the variables file are included too (lint reports them).
func CurrentValues(book *schema.Lorebook, vars map[string]any) map[string]any {
	out := map[string]any{}
	if book != nil {
		for _, v := range book.Manifest.Variables {
			out[v.ID] = v.Default
		}
	}
	for k, v := range vars {
		out[k] = v
	}
	return out
}

// valueSource says where a variable's current value comes from, for
// explanations.
func valueSource(book *schema.Lorebook, vars map[string]any, id string) string {
	if _, ok := vars[id]; ok {
		return "variables"
	}
	if book != nil && book.Manifest.Variable(id) != nil {
		return "manifest"
	}
	return "undeclared"
}

// asNumber reports a value that compares as a number: a number, or a string
// that parses as a finite decimal number ("12", " 3.5 ", "1e3"). Booleans are
// not numbers.
func asNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x)
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case string:
		s := strings.TrimSpace(x)
		if s == "" {
			return 0, false
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, false
		}
		return f, true
	}
	return 0, false
}

// valueText prints a value the way a creator would write it
// (reason.Plain): what {{getvar::id}} gives.
func valueText(v any) string { return reason.Plain(v) }

// FormatValue prints a variable's value for the state block the way
// {{getvar::id}} does (strings as they are, numbers without a trailing ".0",
// lists joined with ", ", objects as compact JSON), except that null prints as
// "null" and an empty list as "[]", so no line of the block is left blank.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case []any:
		if len(x) == 0 {
			return "[]"
		}
	case map[string]any:
		// As compact JSON, keys sorted, without escaping < > & (a prompt is
		// not HTML).
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(x) == nil {
			return strings.TrimSuffix(b.String(), "\n")
		}
	}
	return valueText(v)
}
