package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lorekit/lore/diag"
)

// How schema findings say values and types in a creator's words, and ids in
// kebab-case; and the settings check that needs two values at once.

// typeWord says a JSON Schema type in a creator's words.
var typeWord = map[string]string{"integer": "a whole number", "number": "a number", "string": "a string",
	"boolean": "true or false", "array": "a list", "object": "a mapping", "null": "null"}

func typeWords(want []string) string {
	words := make([]string, len(want))
	for i, w := range want {
		words[i] = w
		if s, ok := typeWord[w]; ok {
			words[i] = s
		}
	}
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// describe names a value's type, with the value when it is short.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("a boolean (%v)", x)
	case float64:
		if x == float64(int64(x)) {
			return fmt.Sprintf("a number (%d)", int64(x))
		}
		return fmt.Sprintf("a number (%s)", strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		if len(x) <= 40 {
			return fmt.Sprintf("a string (%q)", x)
		}
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%T", v)
}

// show writes a scalar value as in the source; collections by their type.
func show(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	}
	return describe(v)
}

// KebabID is the kebab-case spelling the schema proposes for an id that is
// not kebab-case ("" when it has none); lint --fix renames ids to it.
func KebabID(s string) string { return kebab(s) }

// kebab proposes a kebab-case spelling of an id, or "" when it has none.
func kebab(s string) string {
	var b strings.Builder
	dash := false
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case r >= 'A' && r <= 'Z':
			if i > 0 && !dash && b.Len() > 0 {
				prev := s[i-1]
				if prev >= 'a' && prev <= 'z' {
					b.WriteByte('-')
				}
			}
			b.WriteRune(r + 'a' - 'A')
			dash = false
		default:
			if b.Len() > 0 && !dash {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	out := strings.TrimSuffix(b.String(), "-")
	if out == s {
		return ""
	}
	return out
}

// roomForPrompt reports a manifest whose response reserve is as large as its
// context window: nothing would be left for the prompt. A value the schema
// already rejected (a negative reserve) is not reasoned from.
func roomForPrompt(m *Manifest) []diag.Diagnostic {
	s := m.Settings
	pc, hasC := s.Fields["contextTokens"]
	pr, hasR := s.Fields["responseReserve"]
	if !hasC && !hasR || s.ContextTokens <= 0 || s.ResponseReserve < 0 || s.ResponseReserve < s.ContextTokens {
		return nil
	}
	from := "lore's default"
	if hasC {
		from = "settings.contextTokens"
	}
	at := pr
	if !hasR {
		at = pc
	}
	return []diag.Diagnostic{diag.New(at, diag.Error, "schema",
		"settings.responseReserve (%d tokens) is not below the context window (%d tokens, %s): nothing is left for the prompt; raise contextTokens or lower responseReserve",
		s.ResponseReserve, s.ContextTokens, from)}
}
