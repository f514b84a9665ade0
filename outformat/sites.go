package outformat

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// maxDepth bounds the walks over a block's YAML.
const maxDepth = 64

// Site is a mapping that holds a `format` key: one output format.
type Site struct {
	// Name is the key whose value the mapping is ("状态栏"), "" for a block's
	// top mapping or an item of a list.
	Name string
	Map  *yaml.Node
	// FormatKey and Format are the `format` key and its value (the last one
	// when the key is written twice).
	FormatKey, Format *yaml.Node
	// Rule is the value of `rule:` and Condition that of `condition:` (nil
	// when absent); Type is the value of `type:`, a TypeScript or zod
	// declaration of the JSON the format asks for.
	Rule, Condition, Type *yaml.Node
}

// HasRule says whether the format says when the model must write it.
func (s *Site) HasRule() bool { return s.Rule != nil || s.Condition != nil }

// Walk calls visit for every mapping with a `format` key under root, at any
// depth, a mapping before the mappings inside it, in written order. The
// format value itself is not searched for more formats.
func Walk(root *yaml.Node, visit func(*Site)) { walk(root, "", 0, visit) }

func walk(n *yaml.Node, name string, depth int, visit func(*Site)) {
	if depth > maxDepth {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		site := &Site{Name: name, Map: n}
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch n.Content[i].Value {
			case "format":
				site.FormatKey, site.Format = n.Content[i], n.Content[i+1]
			case "rule":
				site.Rule = n.Content[i+1]
			case "condition":
				site.Condition = n.Content[i+1]
			case "type":
				site.Type = n.Content[i+1]
			}
		}
		if site.Format != nil {
			visit(site)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i+1] != site.Format {
				walk(n.Content[i+1], n.Content[i].Value, depth+1, visit)
			}
		}
	case yaml.SequenceNode:
		for _, x := range n.Content {
			walk(x, "", depth+1, visit)
		}
	}
}

// Scalars calls fn for every scalar under n that is template text: a
// mapping's keys are names, not text, and are left out.
func Scalars(n *yaml.Node, fn func(*yaml.Node)) { scalars(n, 0, fn) }

func scalars(n *yaml.Node, depth int, fn func(*yaml.Node)) {
	if depth > maxDepth {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		fn(n)
	case yaml.SequenceNode, yaml.MappingNode:
		for i, x := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				continue // keys are names, not template text
			}
			scalars(x, depth+1, fn)
		}
	}
}

// Placeholders lists the trimmed texts of the ${…} in s (outermost only).
func Placeholders(s string) []string {
	var out []string
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '$' || s[i+1] != '{' {
			continue
		}
		depth := 0
		for j := i + 1; j < len(s); j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				depth--
				if depth == 0 {
					out = append(out, strings.TrimSpace(s[i+2:j]))
					i = j
					break
				}
			}
		}
	}
	return out
}

// RefCycle finds a cycle among the parts of a format (depth-first, parts in
// written order; refs lists the parts each part names) and returns it
// closed: [a b a]. It returns nil when there is none.
func RefCycle(order []string, refs map[string][]string) []string {
	const (
		unseen = iota
		active
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(k string) []string
	visit = func(k string) []string {
		state[k] = active
		path = append(path, k)
		for _, r := range refs[k] {
			switch state[r] {
			case active:
				for i, p := range path {
					if p == r {
						return append(append([]string(nil), path[i:]...), r)
					}
				}
			case unseen:
				if c := visit(r); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[k] = done
		return nil
	}
	for _, k := range order {
		if state[k] == unseen {
			if c := visit(k); c != nil {
				return c
			}
		}
	}
	return nil
}
