package schema

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The fast path of the schema check. The JSON Schema validator is the
// authority, but it wants the document as plain Go values (a second tree of
// maps, built by ToValue) and checks each value generically: together they
// were most of `lore validate`'s time on a valid book. Almost every book is
// valid, so docCheck first walks the node tree with the subset of JSON
// Schema that lore's schemas use, read from the same schema files; only when
// that walk is not sure the document is valid does the validator run, and its
// errors are the ones reported. The walk can therefore cost speed, never
// findings: it must never call valid what the validator would not (a test
// compares them), and anything it does not know makes it unsure.

// fastSchema is one schema (or subschema) of the subset.
type fastSchema struct {
	unknown  bool     // has a keyword the walk does not implement
	types    []string // "type", as JSON Schema names them; nil: any
	enum     []any    // "enum" (or "const") of scalars: string, float64, bool, nil; nil: none
	pattern  *regexp.Regexp
	minLen   int // "minLength"; -1: none
	maxLen   int // "maxLength"; -1: none
	min, max *float64
	required []string
	props    map[string]*fastSchema
	// additional is the schema for keys not in props; nil means any value
	// (no additionalProperties), noExtra that no other key is allowed.
	additional *fastSchema
	noExtra    bool
	items      *fastSchema
	names      *fastSchema // "propertyNames"
	ref        *fastSchema
}

// annotations are keywords that do not constrain values.
var annotations = map[string]bool{
	"$schema": true, "$defs": true, "$comment": true, "title": true,
	"description": true, "default": true, "examples": true, "deprecated": true,
	"readOnly": true, "writeOnly": true,
}

// fastCompiler turns the raw schema documents into fastSchemas, resolving
// "$ref" within a document (#/$defs/x) and between lore's schema files.
type fastCompiler struct {
	raw  map[string]any // file name → parsed schema document
	done map[string]*fastSchema
}

func compileFast(raw map[string]any) map[string]*fastSchema {
	c := &fastCompiler{raw: raw, done: map[string]*fastSchema{}}
	out := map[string]*fastSchema{}
	for file := range raw {
		out[strings.TrimSuffix(file, ".schema.json")] = c.at(file, "")
	}
	return out
}

// at compiles the subschema at a JSON pointer of a file, once.
func (c *fastCompiler) at(file, pointer string) *fastSchema {
	key := file + "#" + pointer
	if s, ok := c.done[key]; ok {
		return s
	}
	var node any = c.raw[file]
	for _, t := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if t == "" {
			continue
		}
		m, ok := node.(map[string]any)
		if !ok {
			node = nil
			break
		}
		node = m[strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")]
	}
	s := &fastSchema{minLen: -1, maxLen: -1}
	c.done[key] = s // before compiling: a recursive $ref finds it
	c.fill(s, file, pointer, node)
	return s
}

// fill compiles node, found at pointer in file, into s.
func (c *fastCompiler) fill(s *fastSchema, file, pointer string, node any) {
	if b, ok := node.(bool); ok {
		s.unknown = !b // false allows nothing: leave it to the validator
		return
	}
	m, ok := node.(map[string]any)
	if !ok {
		s.unknown = true
		return
	}
	for k, v := range m {
		switch {
		case annotations[k]:
		case k == "type":
			switch t := v.(type) {
			case string:
				s.types = []string{t}
			case []any:
				for _, x := range t {
					name, ok := x.(string)
					if !ok {
						s.unknown = true
					}
					s.types = append(s.types, name)
				}
			default:
				s.unknown = true
			}
		case k == "enum", k == "const":
			vs, ok := v.([]any)
			if k == "const" {
				vs, ok = []any{v}, true
			}
			if !ok {
				s.unknown = true
			}
			s.enum = []any{}
			for _, x := range vs {
				x, ok := enumValue(x)
				if !ok {
					s.unknown = true // lists and objects: the validator's equality
				}
				s.enum = append(s.enum, x)
			}
		case k == "pattern":
			p, ok := v.(string)
			re, err := regexp.Compile(p)
			if !ok || err != nil {
				s.unknown = true
			}
			s.pattern = re
		case k == "minLength", k == "maxLength":
			n, ok := integral(v)
			if !ok {
				s.unknown = true
			}
			if k == "minLength" {
				s.minLen = int(n)
			} else {
				s.maxLen = int(n)
			}
		case k == "minimum", k == "maximum":
			n, ok := integral(v) // fractional bounds: leave exactness to the validator
			if !ok {
				s.unknown = true
			}
			if k == "minimum" {
				s.min = &n
			} else {
				s.max = &n
			}
		case k == "required":
			vs, _ := v.([]any)
			for _, x := range vs {
				name, ok := x.(string)
				if !ok {
					s.unknown = true
				}
				s.required = append(s.required, name)
			}
		case k == "properties":
			props, ok := v.(map[string]any)
			if !ok {
				s.unknown = true
			}
			s.props = map[string]*fastSchema{}
			for name := range props {
				s.props[name] = c.at(file, pointer+"/properties/"+escapePointer(name))
			}
		case k == "additionalProperties":
			if b, ok := v.(bool); ok {
				s.noExtra = !b
			} else {
				s.additional = c.at(file, pointer+"/additionalProperties")
			}
		case k == "items":
			s.items = c.at(file, pointer+"/items")
		case k == "propertyNames":
			s.names = c.at(file, pointer+"/propertyNames")
		case k == "$ref":
			ref, _ := v.(string)
			target, frag, _ := strings.Cut(ref, "#")
			if target == "" {
				target = file
			}
			if _, known := c.raw[target]; !known || (frag != "" && !strings.HasPrefix(frag, "/")) {
				s.unknown = true
				continue
			}
			s.ref = c.at(target, frag)
		default:
			s.unknown = true
		}
	}
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// integral reads a whole number from a schema document (jsonschema's
// UnmarshalJSON keeps numbers as json.Number).
func integral(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return f, err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53
}

// valid says whether n is surely valid against s. False means "not sure":
// the caller runs the validator. It reads values as ToValue does (aliases
// followed, merge keys applied, scalars typed by their resolved tag).
func (s *fastSchema) valid(n *yaml.Node, depth int) bool {
	n = resolve(n)
	if s.unknown || n == nil || depth > MaxDepth {
		return false
	}
	if s.ref != nil && !s.ref.valid(n, depth) {
		return false
	}
	switch n.Kind {
	case yaml.MappingNode:
		return s.object(n, depth)
	case yaml.SequenceNode:
		if !s.allows("array") || s.enum != nil {
			return false
		}
		if s.items != nil {
			for _, c := range n.Content {
				if !s.items.valid(c, depth+1) {
					return false
				}
			}
		}
		return true
	case yaml.ScalarNode:
		return s.scalar(scalarValue(n))
	}
	return false
}

func (s *fastSchema) object(n *yaml.Node, depth int) bool {
	if !s.allows("object") || s.enum != nil {
		return false
	}
	if !plainKeys(n) {
		// Merge keys or keys that are not plain scalars: as ToValue reads them.
		ps, _ := pairs(n)
		for _, r := range s.required {
			if !slices.ContainsFunc(ps, func(p pair) bool { return p.Key == r }) {
				return false
			}
		}
		for _, p := range ps {
			if !s.member(p.Key, p.Value, depth) {
				return false
			}
		}
		return true
	}
	// Keys as written, with no list built: a key given twice is checked
	// twice, which can only make the walk less sure, never wrongly sure.
	for _, r := range s.required {
		found := false
		for i := 0; i < len(n.Content) && !found; i += 2 {
			found = n.Content[i].Value == r
		}
		if !found {
			return false
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !s.member(n.Content[i].Value, n.Content[i+1], depth) {
			return false
		}
	}
	return true
}

// plainKeys says whether every key of a mapping is a plain scalar, not a
// merge key.
func plainKeys(m *yaml.Node) bool {
	for i := 0; i < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			return false
		}
	}
	return true
}

// member checks one key and its value of an object.
func (s *fastSchema) member(key string, v *yaml.Node, depth int) bool {
	if s.names != nil && !s.names.scalar(key) {
		return false
	}
	sub, ok := s.props[key]
	switch {
	case ok:
	case s.noExtra:
		return false
	case s.additional != nil:
		sub = s.additional
	default:
		return true
	}
	return sub.valid(v, depth+1)
}

// scalar checks a plain value: nil, bool, float64 or string.
func (s *fastSchema) scalar(v any) bool {
	if s.unknown || (s.ref != nil && !s.ref.scalar(v)) {
		return false
	}
	if s.enum != nil && !slices.Contains(s.enum, v) {
		return false
	}
	switch x := v.(type) {
	case nil:
		return s.allows("null")
	case bool:
		return s.allows("boolean")
	case float64:
		ok := s.allows("number") || (s.allows("integer") && x == math.Trunc(x))
		return ok && (s.min == nil || x >= *s.min) && (s.max == nil || x <= *s.max)
	case string:
		if !s.allows("string") {
			return false
		}
		if s.minLen >= 0 || s.maxLen >= 0 {
			n := utf8.RuneCountInString(x)
			if n < s.minLen || (s.maxLen >= 0 && n > s.maxLen) {
				return false
			}
		}
		return s.pattern == nil || s.pattern.MatchString(x)
	}
	return false
}

// enumValue reads an enum or const value of a schema document as ToValue's
// types: strings, numbers as float64, booleans and null; ok is false for a
// list or an object.
func enumValue(x any) (any, bool) {
	switch v := x.(type) {
	case string, bool, nil:
		return v, true
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	}
	return nil, false
}

func (s *fastSchema) allows(t string) bool {
	return s.types == nil || slices.Contains(s.types, t)
}
