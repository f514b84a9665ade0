package schema

import (
	"math"
	"strconv"

	"gopkg.in/yaml.v3"
)

// resolve follows aliases to the value they name. ParseFile has already refused
// cycles, so the loop ends; the bound is a second guard for trees built elsewhere.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < MaxDepth; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return resolve(n.Content[0])
	}
	return n
}

// pair is one key/value of a mapping, after merge keys (<<: *base) are applied.
type pair struct {
	Key   string
	KeyN  *yaml.Node
	Value *yaml.Node
}

// pairs lists a mapping's keys in source order, with YAML merge keys expanded:
// explicit keys win over merged ones, as in yaml.v3's own decoder. The second
// result lists keys given twice (the later node), which YAML and JSON both
// forbid in spirit and which would silently lose a value.
func pairs(m *yaml.Node) (ps []pair, dups []pair) {
	m = resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	ps = make([]pair, 0, len(m.Content)/2)
	// Entries have a dozen keys: a linear scan beats building a map for each.
	var seen map[string]bool
	if len(m.Content) > 32 {
		seen = make(map[string]bool, len(m.Content)/2)
	}
	has := func(key string) bool {
		if seen != nil {
			return seen[key]
		}
		for _, p := range ps {
			if p.Key == key {
				return true
			}
		}
		return false
	}
	add := func(p pair) {
		ps = append(ps, p)
		if seen != nil {
			seen[p.Key] = true
		}
	}
	var merged []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merged = append(merged, v)
			continue
		}
		key := keyString(k)
		if has(key) {
			dups = append(dups, pair{key, k, v})
			continue
		}
		add(pair{key, k, v})
	}
	for _, mv := range merged {
		srcs := []*yaml.Node{resolve(mv)}
		if srcs[0] != nil && srcs[0].Kind == yaml.SequenceNode {
			srcs = srcs[0].Content
		}
		for _, s := range srcs {
			sub, _ := pairs(s)
			for _, p := range sub {
				if !has(p.Key) {
					add(p)
				}
			}
		}
	}
	return ps, dups
}

func keyString(k *yaml.Node) string {
	k = resolve(k)
	if k == nil {
		return ""
	}
	if k.Kind == yaml.ScalarNode {
		return k.Value
	}
	return "<" + kindName(k) + ">"
}

// kindName names a node's type in words a creator knows.
func kindName(n *yaml.Node) string {
	n = resolve(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "a boolean"
		case "!!int", "!!float":
			return "a number"
		}
		return "a string"
	}
	return "nothing"
}

// ToValue converts a node to plain Go values: string, float64, bool, nil,
// []any and map[string]any (what encoding/json produces), following aliases
// and merge keys. Trees from ParseFile are already checked against alias
// bombs; a budget still bounds the work for trees built elsewhere.
func ToValue(n *yaml.Node) any {
	budget := minAliasBudget * 4
	return toValue(n, &budget, 0)
}

func toValue(n *yaml.Node, budget *int, depth int) any {
	n = resolve(n)
	*budget--
	if n == nil || *budget < 0 || depth > MaxDepth {
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		ps, _ := pairs(n)
		m := make(map[string]any, len(ps))
		for _, p := range ps {
			m[p.Key] = toValue(p.Value, budget, depth+1)
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			s = append(s, toValue(c, budget, depth+1))
		}
		return s
	case yaml.ScalarNode:
		return scalarValue(n)
	}
	return nil
}

// scalarValue gives a scalar its JSON type by its resolved YAML tag. Tags JSON
// has no type for (timestamps, binary, custom) stay strings, as written.
func scalarValue(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err == nil {
			return b
		}
	case "!!int":
		if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			return float64(i)
		}
		var i int64
		if err := n.Decode(&i); err == nil {
			return float64(i)
		}
		var f float64
		if err := n.Decode(&f); err == nil {
			return f
		}
	case "!!float":
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsInf(f, 0) {
			return f
		}
		var f float64
		if err := n.Decode(&f); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
	}
	return n.Value
}
