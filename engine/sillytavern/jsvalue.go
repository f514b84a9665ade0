package sillytavern

import (
	"math"
	"strconv"
	"strings"
)

// SillyTavern reads its entry fields with JavaScript's loose rules: a field
// is "set" when truthy, a number is whatever Number() makes of it, and `??`
// falls back only on null and undefined. These helpers give a decoded JSON
// value (nil, bool, float64, string, []any, map[string]any) those meanings.

// truthy is JavaScript's ToBoolean.
func truthy(v any) bool {
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

// number is JavaScript's Number(v).
func number(v any) float64 {
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
		s := jsTrim(x)
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
			return number(x[0])
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

// jsSpace is JavaScript's WhiteSpace and LineTerminator: what trim() strips
// and \s matches.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}

// jsTrim is String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, jsSpace) }

// hasJSSpace says whether s has a character \s matches.
func hasJSSpace(s string) bool {
	for _, r := range s {
		if jsSpace(r) {
			return true
		}
	}
	return false
}

// wordByte is a byte of JavaScript's \w (the ASCII word characters); every
// byte of a non-ASCII character is outside it, as the UTF-16 code units of
// that character are outside \w.
func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
