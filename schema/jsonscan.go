package schema

import "gopkg.in/yaml.v3"

// scanJSON is the fast path of parseJSONAt: one pass over data[start:end]
// that builds the node tree and computes every position as it goes. It
// reports only whether the text is valid JSON; on false the caller parses
// again with encoding/json (jsonParser), whose errors are the ones users read,
// so the two agree on wording and position by construction. Fuzzing checks
// that scanJSON never accepts what encoding/json refuses and builds the same
// tree for what both accept.
//
// Why not encoding/json alone: its Token API allocates per token and was half
// of `lore validate`'s time on a large JSON lorebook. Why two parsers and not
// one: the scanner says nothing about what is wrong, and teaching it the
// standard library's error wording and offsets would be a third thing to
// keep in step; bad JSON is rare and small, so it pays for the slow parse.
// These two are lore's only JSON parsers: every other reader of JSON (lore
// test, the loaders, formats' importers through jnode) walks the node tree
// they build, except formats' scanJSON, which builds its jnodes with this
// scanner's JSONLexer and leaves invalid text to these two; so positions,
// limits and syntax errors are the same everywhere.
func scanJSON(data []byte, start, end int, first Pos) (*yaml.Node, bool) {
	s := &jsonScanner{JSONLexer: lexerAt(data, start, end, first)}
	s.Space()
	n, ok := s.value(1)
	if !ok {
		return nil, false
	}
	s.Space()
	return n, s.i == s.end
}

type jsonScanner struct {
	JSONLexer

	nodes []yaml.Node  // allocated in blocks: one allocation per block
	ptrs  []*yaml.Node // backing store of the Content slices
	stack []*yaml.Node // children of the containers being read
}

const scanBlock = 256

func (s *jsonScanner) node(kind yaml.Kind, tag string) *yaml.Node {
	if len(s.nodes) == cap(s.nodes) {
		s.nodes = make([]yaml.Node, 0, scanBlock)
	}
	s.nodes = s.nodes[:len(s.nodes)+1]
	n := &s.nodes[len(s.nodes)-1]
	n.Kind, n.Tag = kind, tag
	n.Line, n.Column = s.Pos()
	return n
}

// content moves the children read since mark off the stack into a slice of
// exactly their length (so an append by a later reader copies, never
// overwrites a neighbour's children).
func (s *jsonScanner) content(mark int) []*yaml.Node {
	kids := s.stack[mark:]
	k := len(kids)
	if k == 0 {
		s.stack = s.stack[:mark]
		return nil
	}
	if cap(s.ptrs)-len(s.ptrs) < k {
		s.ptrs = make([]*yaml.Node, 0, max(4*scanBlock, k))
	}
	at := len(s.ptrs)
	s.ptrs = append(s.ptrs, kids...)
	s.stack = s.stack[:mark]
	return s.ptrs[at : at+k : at+k]
}

func (s *jsonScanner) value(depth int) (*yaml.Node, bool) {
	if s.i >= s.end {
		return nil, false
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return s.object(depth)
	case c == '[':
		return s.array(depth)
	case c == '"':
		n := s.node(yaml.ScalarNode, "!!str")
		n.Style = yaml.DoubleQuotedStyle
		v, ok := s.String()
		n.Value = v
		return n, ok
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true", "!!bool")
	case c == 'f':
		return s.literal("false", "!!bool")
	case c == 'n':
		return s.literal("null", "!!null")
	}
	return nil, false
}

func (s *jsonScanner) object(depth int) (*yaml.Node, bool) {
	if depth > MaxDepth {
		return nil, false
	}
	n := s.node(yaml.MappingNode, "!!map")
	n.Style = yaml.FlowStyle
	s.i++ // {
	mark := len(s.stack)
	s.Space()
	if s.i < s.end && s.data[s.i] == '}' {
		s.i++
		return n, true
	}
	for {
		if s.i >= s.end || s.data[s.i] != '"' {
			return nil, false
		}
		k := s.node(yaml.ScalarNode, "!!str")
		k.Style = yaml.DoubleQuotedStyle
		v, ok := s.String()
		if !ok {
			return nil, false
		}
		k.Value = v
		s.Space()
		if s.i >= s.end || s.data[s.i] != ':' {
			return nil, false
		}
		s.i++
		s.Space()
		val, ok := s.value(depth + 1)
		if !ok {
			return nil, false
		}
		s.stack = append(s.stack, k, val)
		if more, ok := s.Next('}'); !ok {
			return nil, false
		} else if !more {
			n.Content = s.content(mark)
			return n, true
		}
	}
}

func (s *jsonScanner) array(depth int) (*yaml.Node, bool) {
	if depth > MaxDepth {
		return nil, false
	}
	n := s.node(yaml.SequenceNode, "!!seq")
	n.Style = yaml.FlowStyle
	s.i++ // [
	mark := len(s.stack)
	s.Space()
	if s.i < s.end && s.data[s.i] == ']' {
		s.i++
		return n, true
	}
	for {
		v, ok := s.value(depth + 1)
		if !ok {
			return nil, false
		}
		s.stack = append(s.stack, v)
		if more, ok := s.Next(']'); !ok {
			return nil, false
		} else if !more {
			n.Content = s.content(mark)
			return n, true
		}
	}
}

// number reads a number, kept as written.
func (s *jsonScanner) number() (*yaml.Node, bool) {
	n := s.node(yaml.ScalarNode, "!!int")
	raw, float, ok := s.NumberText()
	if !ok {
		return nil, false
	}
	if float {
		n.Tag = "!!float"
	}
	n.Value = raw
	return n, true
}

func (s *jsonScanner) literal(word, tag string) (*yaml.Node, bool) {
	n := s.node(yaml.ScalarNode, tag)
	n.Value = word
	return n, s.Literal(word)
}
