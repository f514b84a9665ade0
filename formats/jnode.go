package formats

import (
	"math"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// jkind is the kind of a JSON value.
type jkind int

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

// jnode is a foreign file's JSON value with the position where it starts.
// Parsing is schema's (schema.ParseBytes: one JSON parser, one set of syntax
// errors, the same limits); jnode is the small read-only view the importers
// walk, with keys in a map because SillyTavern books key thousands of
// entries by uid.
type jnode struct {
	kind jkind
	pos  diag.Pos
	b    bool
	num  float64
	raw  string // number as written
	str  string
	arr  []*jnode
	keys []string // object keys in source order
	vals map[string]*jnode
}

// detectDepth is how deep detect looks: a key of an entry of a book (root →
// entries → entry → key). Nodes deeper than that are converted without their
// children while detecting, so recognising lore's own format costs little.
const detectDepth = 3

// fromYAML converts schema's node tree (from schema.ParseBytes or a
// schema.Doc, one parser for every format). JSON only yields the JSON tags;
// the YAML cases matter for a file whose name says YAML but whose text starts
// with '{' (schema parses it as YAML, as schema.Load would). Nodes at depth
// limit keep their kind but not their children. The parser has already
// refused alias bombs, cycles and nesting over schema.MaxDepth; the depth
// check here only guards trees built elsewhere.
func fromYAML(file string, y *yaml.Node, depth, limit int) *jnode {
	for i := 0; y != nil && y.Kind == yaml.AliasNode && i < schema.MaxDepth; i++ {
		y = y.Alias
	}
	if y == nil || depth > schema.MaxDepth {
		return &jnode{kind: jNull, pos: diag.Pos{File: file}}
	}
	n := &jnode{pos: diag.Pos{File: file, Line: y.Line, Col: y.Column}}
	if depth >= limit && (y.Kind == yaml.MappingNode || y.Kind == yaml.SequenceNode) {
		n.kind = jArr
		if y.Kind == yaml.MappingNode {
			n.kind = jObj
		}
		return n
	}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) > 0 {
			return fromYAML(file, y.Content[0], depth, limit)
		}
	case yaml.MappingNode:
		n.kind = jObj
		n.vals = make(map[string]*jnode, len(y.Content)/2)
		for i := 0; i+1 < len(y.Content); i += 2 {
			k := y.Content[i].Value
			if _, dup := n.vals[k]; !dup {
				n.keys = append(n.keys, k)
			}
			// Like JavaScript (which wrote these files), the last duplicate wins.
			n.vals[k] = fromYAML(file, y.Content[i+1], depth+1, limit)
		}
	case yaml.SequenceNode:
		n.kind = jArr
		n.arr = make([]*jnode, 0, len(y.Content))
		for _, c := range y.Content {
			n.arr = append(n.arr, fromYAML(file, c, depth+1, limit))
		}
	case yaml.ScalarNode:
		scalar(n, y)
	}
	return n
}

// scalar gives n the value of a scalar node by its resolved tag. A number
// beyond float64 (1e999) stays the string it was written as, as
// schema.ToValue keeps it: nothing downstream can write an infinity.
func scalar(n *jnode, y *yaml.Node) {
	switch y.ShortTag() {
	case "!!null":
		n.kind = jNull
		return
	case "!!bool":
		// JSON spells them one way; Decode (reflection) is for YAML's others.
		if y.Value == "true" || y.Value == "false" {
			n.kind, n.b = jBool, y.Value == "true"
			return
		}
		if err := y.Decode(&n.b); err == nil {
			n.kind = jBool
			return
		}
	case "!!int", "!!float":
		f, err := strconv.ParseFloat(y.Value, 64)
		if err != nil { // YAML spellings: 0x1F, 1_000, .inf
			err = y.Decode(&f)
		}
		if err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			n.kind, n.num, n.raw = jNum, f, y.Value
			return
		}
	}
	n.kind, n.str = jStr, y.Value
}

// is says whether n is present and of kind k.
func (n *jnode) is(k jkind) bool { return n != nil && n.kind == k }

func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != jObj {
		return nil
	}
	return n.vals[key]
}

func (n *jnode) has(key string) bool { return n.get(key) != nil }

// strOf returns the string value of n, or "" when n is not a string.
func (n *jnode) strOf() (string, bool) {
	if n == nil || n.kind != jStr {
		return "", false
	}
	return n.str, true
}

func (n *jnode) numOf() (float64, bool) {
	if n == nil || n.kind != jNum {
		return 0, false
	}
	return n.num, true
}

func (n *jnode) boolOf() (bool, bool) {
	if n == nil || n.kind != jBool {
		return false, false
	}
	return n.b, true
}

// value converts n to the model's plain values: string, float64, bool, nil,
// []any, map[string]any.
func (n *jnode) value() any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case jBool:
		return n.b
	case jNum:
		return n.num
	case jStr:
		return n.str
	case jArr:
		out := make([]any, len(n.arr))
		for i, c := range n.arr {
			out[i] = c.value()
		}
		return out
	case jObj:
		out := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			out[k] = n.vals[k].value()
		}
		return out
	}
	return nil
}
