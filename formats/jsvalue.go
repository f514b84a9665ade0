package formats

import (
	"math"
	"strconv"
	"strings"
)

// SillyTavern reads its entry fields with JavaScript's loose rules: a field
// is "set" when truthy, a number is whatever Number() makes of it, and `??`
// falls back only on null and undefined. These helpers give a decoded JSON
// value (nil, bool, float64, string, []any, map[string]any) those meanings;
// STEntry's accessors are built on them, so the sillytavern engine, export
// and the loss report read a field alike.

// JSTruthy is JavaScript's ToBoolean (exported for the other readers of
// SillyTavern's objects, its regex scripts).
func JSTruthy(v any) bool { return jsTruthy(v) }

// jsTruthy is JavaScript's ToBoolean.
func jsTruthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0 && !math.IsNaN(x)
	case int:
		return x != 0
	case string:
		return x != ""
	}
	return true
}

// JSNumber is JavaScript's Number(v) of a decoded JSON value.
func JSNumber(v any) float64 {
	switch x := v.(type) {
	case nil:
		return 0
	case bool:
		if x {
			return 1
		}
		return 0
	case float64:
		return x
	case int:
		return float64(x)
	case string:
		s := JSTrim(x)
		if s == "" {
			return 0
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			if n, err := strconv.ParseInt(s, 0, 64); err == nil {
				return float64(n)
			}
			return math.NaN()
		}
		return f
	case []any:
		switch len(x) {
		case 0:
			return 0
		case 1:
			return JSNumber(x[0])
		}
	}
	return math.NaN()
}

// jsString is JavaScript's String(v) for the values a key list holds.
func jsString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// jsLooseTrue is JavaScript's `v == true`.
func jsLooseTrue(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case nil, map[string]any:
		return false
	case []any: // compared as its String(): [1] and ["1"] are true, [true] is not
		if len(x) == 1 {
			if _, isBool := x[0].(bool); !isBool {
				return jsLooseTrue(x[0]) || JSNumber(x[0]) == 1
			}
		}
		return false
	}
	return JSNumber(v) == 1
}

// JSSpace is JavaScript's WhiteSpace and LineTerminator: what trim() strips
// and \s matches.
func JSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}

// JSTrim is String.prototype.trim.
func JSTrim(s string) string { return strings.TrimFunc(s, JSSpace) }
