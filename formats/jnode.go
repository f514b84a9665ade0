package formats

import (
	"math"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/schema"
)

// jkind is the kind of a JSON value.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

// jnode is a foreign file's JSON value with the position where it starts:
// the small read-only view the importers walk instead of yaml.Node, because
// they ask by key (a yaml.Node mapping is a list of pairs, and SillyTavern
// books key thousands of entries by uid, so lookups are by map here), read
// numbers as numbers, and detect a format from stubs a few levels deep
// (detectDepth) without converting the whole tree. The syntax is schema's
// either way: a jnode tree is converted from schema's yaml.Node tree, or, for
// a file that is almost surely foreign, built by scanJSON with schema's
// JSONLexer (the same grammar, limits and positions).
type jnode struct {
	kind      jkind
	b         bool
	line, col int32 // where it starts in the importer's file; 0 when not known
	num       float64
	str       string // a string, or a number as written
	// kids are an array's items or an object's values; an object's keys are
	// its shape's, in the same order, each once (the value is the last of
	// duplicate keys, as in JavaScript).
	kids  []*jnode
	shape *shape
}

// shape is the key list of an object, shared by every object of the file
// written with the same keys in the same order: a SillyTavern book's
// thousands of entries have a handful of shapes, so their lookups share one
// small map that stays in the cache, instead of building a map per entry.
type shape struct {
	raw   []string // the keys as written, duplicates included
	keys  []string // each key once, in source order
	slot  []int32  // raw[i]'s index in keys; nil when raw has no duplicates
	index map[string]int32
}

// recentShapes is how many shapes the converter tries before making a new
// one: an entry and the objects nested in it.
const recentShapes = 8

// shapeOf returns the shape of the keys raw (as written), from the recent
// ones when they match, else a new one (with its own copy of raw), which
// becomes the most recent.
func (c *converter) shapeOf(raw []string) *shape {
	for i, s := range c.shapes {
		if s == nil || !slices.Equal(s.raw, raw) {
			continue
		}
		copy(c.shapes[1:i+1], c.shapes[:i])
		c.shapes[0] = s
		return s
	}
	n := len(raw)
	s := &shape{raw: slices.Clone(raw), index: make(map[string]int32, n)}
	for _, k := range s.raw {
		if _, dup := s.index[k]; !dup {
			s.index[k] = int32(len(s.keys))
			s.keys = append(s.keys, k)
		}
	}
	if len(s.keys) < n {
		s.slot = make([]int32, n)
		for i, k := range s.raw {
			s.slot[i] = s.index[k]
		}
	} else {
		s.keys = s.raw
	}
	copy(c.shapes[1:], c.shapes[:recentShapes-1])
	c.shapes[0] = s
	return s
}

// mappingShape is shapeOf the keys of the mapping node y.
func (c *converter) mappingShape(y *yaml.Node) *shape {
	c.scratch = c.scratch[:0]
	for i := 0; i+1 < len(y.Content); i += 2 {
		c.scratch = append(c.scratch, y.Content[i].Value)
	}
	return c.shapeOf(c.scratch)
}

// at is the index in the shape's keys of the i-th key as written.
func (s *shape) at(i int) int {
	if s.slot == nil {
		return i
	}
	return int(s.slot[i])
}

// detectDepth is how deep detect looks: a key of an entry of a book (root →
// entries → entry → key). Nodes that deep are stubs while detecting, so
// recognising lore's own format costs little.
const detectDepth = 3

// converter turns schema's node tree (from schema.ParseBytes or a
// schema.Doc: one parser for every format) into jnodes. JSON only yields the
// JSON tags; the YAML cases matter for a file whose name says YAML but whose
// text starts with '{' (schema parses it as YAML, as schema.Load would). The
// parser has already refused alias bombs, cycles and nesting over
// schema.MaxDepth; the depth checks here only guard trees built elsewhere.
type converter struct {
	block   []jnode // jnodes are allocated in blocks, not one by one
	shapes  [recentShapes]*shape
	scratch []string
}

func (c *converter) node(y *yaml.Node) *jnode { return c.nodeAt(y.Line, y.Column) }

// nodeAt is a new node that starts at line and col.
func (c *converter) nodeAt(line, col int) *jnode {
	if len(c.block) == cap(c.block) {
		c.block = make([]jnode, 0, 256)
	}
	c.block = c.block[:len(c.block)+1]
	n := &c.block[len(c.block)-1]
	n.line, n.col = int32(min(line, math.MaxInt32)), int32(min(col, math.MaxInt32))
	return n
}

// resolveAlias follows aliases, within the same bound as schema's.
func resolveAlias(y *yaml.Node) *yaml.Node {
	for i := 0; y != nil && y.Kind == yaml.AliasNode && i < schema.MaxDepth; i++ {
		y = y.Alias
	}
	if y != nil && y.Kind == yaml.DocumentNode && len(y.Content) > 0 {
		return resolveAlias(y.Content[0])
	}
	return y
}

// convert converts y, found at depth; nodes at depth limit are stubs (see
// stubs), which complete fills in later.
func (c *converter) convert(y *yaml.Node, depth, limit int) *jnode {
	y = resolveAlias(y)
	if y == nil || depth > schema.MaxDepth {
		return &jnode{kind: jNull}
	}
	if depth >= limit {
		return stubs[stubKind(y)]
	}
	n := c.node(y)
	switch y.Kind {
	case yaml.MappingNode:
		n.makeObject(c.mappingShape(y))
		for i := range len(y.Content) / 2 {
			// Like JavaScript (which wrote these files), the last duplicate wins.
			n.kids[n.shape.at(i)] = c.convert(y.Content[2*i+1], depth+1, limit)
		}
	case yaml.SequenceNode:
		n.kind = jArr
		n.kids = make([]*jnode, 0, len(y.Content))
		for _, e := range y.Content {
			n.kids = append(n.kids, c.convert(e, depth+1, limit))
		}
	case yaml.ScalarNode:
		scalar(n, y)
	}
	return n
}

// complete turns a tree that convert cut at a depth limit into the whole
// tree, converting only what the cut left out: detecting a format and then
// importing it convert each node once.
func (c *converter) complete(n *jnode, y *yaml.Node, depth int) *jnode {
	y = resolveAlias(y)
	if y == nil || depth > schema.MaxDepth {
		return n
	}
	if n == stubs[n.kind] {
		return c.convert(y, depth, schema.MaxDepth+1)
	}
	switch {
	case n.kind == jObj && y.Kind == yaml.MappingNode && n.shape != nil && 2*len(n.shape.raw) == len(y.Content):
		// vals holds the last of duplicate keys: walk backwards, each key once.
		var done []bool
		if n.shape.slot != nil {
			done = make([]bool, len(n.kids))
		}
		for i := len(n.shape.raw) - 1; i >= 0; i-- {
			at := n.shape.at(i)
			if done != nil {
				if done[at] {
					continue
				}
				done[at] = true
			}
			n.kids[at] = c.complete(n.kids[at], y.Content[2*i+1], depth+1)
		}
	case n.kind == jArr && y.Kind == yaml.SequenceNode:
		for i, e := range y.Content {
			n.kids[i] = c.complete(n.kids[i], e, depth+1)
		}
	}
	return n
}

// stubs stand for the nodes below the depth limit, one per kind, shared:
// detection only asks whether they are there, so they cost no allocation.
// Nothing may modify them.
var stubs = [...]*jnode{jNull: {kind: jNull}, jBool: {kind: jBool}, jNum: {kind: jNum}, jStr: {kind: jStr}, jArr: {kind: jArr}, jObj: {kind: jObj}}

// stubKind is the kind of a node below the depth limit, by its tag.
func stubKind(y *yaml.Node) jkind {
	switch y.Kind {
	case yaml.MappingNode:
		return jObj
	case yaml.SequenceNode:
		return jArr
	}
	switch y.ShortTag() {
	case "!!null":
		return jNull
	case "!!bool":
		return jBool
	case "!!int", "!!float":
		return jNum
	}
	return jStr
}

// scalar gives n the value of a scalar node by its resolved tag (numbers:
// setNumber).
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
		if err == nil {
			setNumber(n, f, y.Value)
			return
		}
	}
	n.kind, n.str = jStr, y.Value
}

// setNumber gives n the number f, written raw. One beyond float64 (1e999)
// stays the string it was written as, as schema.ToValue keeps it: nothing
// downstream can write an infinity.
func setNumber(n *jnode, f float64, raw string) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		n.kind, n.str = jStr, raw
		return
	}
	n.kind, n.num, n.str = jNum, f, raw
}

// makeObject makes n an object of shape s, its values yet to be set (the
// i-th key as written goes to kids[s.at(i)]).
func (n *jnode) makeObject(s *shape) {
	n.kind, n.shape, n.kids = jObj, s, make([]*jnode, len(s.keys))
}

// is says whether n is present and of kind k.
func (n *jnode) is(k jkind) bool { return n != nil && n.kind == k }

func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != jObj || n.shape == nil {
		return nil
	}
	if i, ok := n.shape.index[key]; ok {
		return n.kids[i]
	}
	return nil
}

// items are an array's items; nil for another kind.
func (n *jnode) items() []*jnode {
	if n == nil || n.kind != jArr {
		return nil
	}
	return n.kids
}

// keys are an object's keys in source order, each once; nil for another
// kind.
func (n *jnode) keys() []string {
	if n == nil || n.shape == nil {
		return nil
	}
	return n.shape.keys
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
		out := make([]any, len(n.kids))
		for i, c := range n.kids {
			out[i] = c.value()
		}
		return out
	case jObj:
		out := make(map[string]any, len(n.kids))
		for i, k := range n.keys() {
			out[k] = n.kids[i].value()
		}
		return out
	}
	return nil
}
