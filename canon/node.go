package canon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The node builders below make yaml.v3 trees of plain values. canon writes
// them as YAML or JSON; formats writes SillyTavern and card JSON with them.
// They set no style: styleTree lays a tree out before it is written as YAML.

// Mapping is an empty mapping node.
func Mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

// AddPair appends key: v to the mapping m.
func AddPair(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, StrNode(key), v)
}

// AddStr appends key: s to m when s is not empty: lore leaves empty texts out.
func AddStr(m *yaml.Node, key, s string) {
	if s != "" {
		AddPair(m, key, StrNode(s))
	}
}

// StrNode is a string scalar.
func StrNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func intNode(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

// floatNode writes whole numbers without a fraction, as JSON readers and
// people write them (0.0 → 0, 100.0 → 100).
func floatNode(f float64) *yaml.Node {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(int64(f), 10)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'g', -1, 64)}
}

func nullNode() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"} }

// seqOf is a sequence of items, each made by item.
func seqOf[T any](items []T, item func(T) *yaml.Node) *yaml.Node {
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: make([]*yaml.Node, 0, len(items))}
	for _, it := range items {
		seq.Content = append(seq.Content, item(it))
	}
	return seq
}

// ValueNode is a plain value (string, float64, int, bool, nil, []any,
// map[string]any, []string) as a tree, map keys sorted so output never
// depends on map order.
func ValueNode(v any) *yaml.Node {
	switch x := v.(type) {
	case nil:
		return nullNode()
	case string:
		return StrNode(x)
	case bool:
		return boolNode(x)
	case float64:
		return floatNode(x)
	case int:
		return intNode(x)
	case int64:
		return floatNode(float64(x))
	case []any:
		return seqOf(x, ValueNode)
	case []string:
		return seqOf(x, StrNode)
	case map[string]any:
		n := Mapping()
		for _, k := range slices.Sorted(maps.Keys(x)) {
			AddPair(n, k, ValueNode(x[k]))
		}
		return n
	}
	// Anything else (a value a future model type adds): through JSON.
	var generic any
	if b, err := json.Marshal(v); err == nil && json.Unmarshal(b, &generic) == nil && reflect.TypeOf(generic) != reflect.TypeOf(v) {
		return ValueNode(generic)
	}
	return StrNode(fmt.Sprint(v))
}

// WriteJSON writes a tree as JSON, one item a line, each level indented by
// step, keys in the tree's order, UTF-8 unescaped. Numbers, booleans and null
// are written as their scalar's text, so a tree read from JSON keeps the
// numbers as written (1.50 stays 1.50). It is one of lore's two JSON writers:
// this one writes lore's own files (import -o book.json, fmt of a JSON file)
// from the node tree fmt and import already build for YAML, so both layouts
// come from one tree; formats' marshalJSON writes other tools' files from Go
// values in their key order and number style.
func WriteJSON(b *bytes.Buffer, n *yaml.Node, step string) { writeJSON(b, n, "", step) }

func writeJSON(b *bytes.Buffer, n *yaml.Node, indent, step string) {
	open, closer, stride := "[", "]", 1
	switch n.Kind {
	case yaml.MappingNode:
		open, closer, stride = "{", "}", 2
	case yaml.SequenceNode:
	default:
		writeJSONScalar(b, n)
		return
	}
	if len(n.Content) == 0 {
		b.WriteString(open + closer)
		return
	}
	b.WriteString(open + "\n")
	for i := 0; i+stride <= len(n.Content); i += stride {
		b.WriteString(indent + step)
		if stride == 2 {
			writeJSONString(b, n.Content[i].Value)
			b.WriteString(": ")
		}
		writeJSON(b, n.Content[i+stride-1], indent+step, step)
		if i+stride < len(n.Content) {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + closer)
}

func writeJSONScalar(b *bytes.Buffer, n *yaml.Node) {
	switch n.ShortTag() {
	case "!!int", "!!float", "!!bool":
		b.WriteString(n.Value)
	case "!!null":
		b.WriteString("null")
	default:
		writeJSONString(b, n.Value)
	}
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}

// blockStyle is the style of a multi-line string: a literal block, so text
// reads as written, unless yaml.v3 would not read that block back as the same
// text (leading line breaks, only line breaks, tab-indented lines…), then a
// double-quoted string.
func blockStyle(s string) yaml.Style {
	if riskyBlock(s) && !blockRoundTrips(s) {
		return yaml.DoubleQuotedStyle
	}
	return yaml.LiteralStyle
}

// riskyBlock: texts whose block form yaml.v3 has been seen to get wrong; only
// these pay for the read-back check (FuzzStrNode keeps the list honest).
func riskyBlock(s string) bool {
	return s == "" || strings.TrimSpace(s) == "" || strings.ContainsAny(s[:1], " \t\n\r") ||
		strings.Contains(s, "\r") || strings.Contains(s, "\n\t") || strings.Contains(s, "\n ") ||
		strings.ContainsFunc(s, func(r rune) bool {
			return r < 0x20 && r != '\n' || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff
		})
}

func blockRoundTrips(s string) bool {
	m := Mapping()
	AddPair(m, "k", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.LiteralStyle})
	b, err := yaml.Marshal(m)
	if err != nil {
		return false
	}
	var back map[string]string
	return yaml.Unmarshal(b, &back) == nil && back["k"] == s
}
