package formats

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// object is a JSON object that keeps its keys in the order they were set:
// exports write fields in the order the target tool writes them, so a
// file lore exports reads like one the tool saved.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

// set adds or replaces key; a new key goes last.
func (o *object) set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// setAll adds every key of m not yet set, in sorted order (deterministic).
func (o *object) setAll(m map[string]any) {
	for _, k := range sortedKeys(m) {
		if _, ok := o.vals[k]; !ok {
			o.set(k, m[k])
		}
	}
}

// marshalJSON prints v (an *object, map[string]any with its keys sorted,
// []any, []string, string, float64, int, bool or nil) as JSON indented by
// step, ending with a newline. It is one of lore's two JSON writers, kept
// apart from canon.WriteJSON on purpose: this one writes other tools' files
// (exports) from Go values, in the target tool's key order (object) and its
// number style (5, not 5.0); canon's writes lore's own files from a node
// tree, each scalar as it was written (1.50 stays 1.50), and canon must not
// know a foreign format nor formats write lore's files. encoding/json would
// sort every map, escape <, > and &, and write floats its own way.
func marshalJSON(v any, step string) []byte {
	var b bytes.Buffer
	writeValue(&b, v, "", step)
	b.WriteByte('\n')
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any, indent, step string) {
	switch x := v.(type) {
	case *object:
		writeMembers(b, len(x.keys), indent, step, "{", "}", func(i int) (string, any) { return x.keys[i], x.vals[x.keys[i]] })
	case map[string]any:
		keys := sortedKeys(x)
		writeMembers(b, len(keys), indent, step, "{", "}", func(i int) (string, any) { return keys[i], x[keys[i]] })
	case []any:
		writeMembers(b, len(x), indent, step, "[", "]", func(i int) (string, any) { return "", x[i] })
	case []string:
		writeMembers(b, len(x), indent, step, "[", "]", func(i int) (string, any) { return "", x[i] })
	case string:
		writeString(b, x)
	case float64:
		writeNumber(b, x)
	case int:
		b.WriteString(strconv.Itoa(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case nil:
		b.WriteString("null")
	default:
		// A value of another Go type: through encoding/json, compact.
		out, err := json.Marshal(x)
		if err != nil {
			out = []byte("null")
		}
		b.Write(out)
	}
}

// writeMembers prints n members one per line; key is "" for array items.
func writeMembers(b *bytes.Buffer, n int, indent, step, open, closer string, member func(int) (string, any)) {
	if n == 0 {
		b.WriteString(open + closer)
		return
	}
	b.WriteString(open + "\n")
	inner := indent + step
	for i := 0; i < n; i++ {
		k, v := member(i)
		b.WriteString(inner)
		if open == "{" {
			writeString(b, k)
			b.WriteString(": ")
		}
		writeValue(b, v, inner, step)
		if i < n-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + closer)
}

// writeNumber prints integral values without a fraction, as the tools do.
func writeNumber(b *bytes.Buffer, f float64) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		b.WriteString("null")
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		b.WriteString(strconv.FormatInt(int64(f), 10))
	default:
		b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	}
}

// writeString escapes as JSON, leaving <, > and & readable. Most strings
// need no escape and are copied as they are.
func writeString(b *bytes.Buffer, s string) {
	if plainJSON(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}

// plainJSON says whether s is written in JSON as it is: valid UTF-8 with no
// quote, backslash, control character or line/paragraph separator (which
// encoding/json escapes).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return false
		}
	}
	return utf8.ValidString(s) && !strings.Contains(s, "\u2028") && !strings.Contains(s, "\u2029")
}
