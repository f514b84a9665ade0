package formats

import (
	"math"
	"strconv"

	"github.com/lorekit/lore/schema"
)

// scanJSON builds the jnode tree of JSON text straight from its bytes, with
// schema's lexer (the same grammar, positions and depth limit as
// schema.ParseDoc), for a file that is almost surely foreign (foreignText)
// or that Convert was given: its importer then walks one tree instead of a
// yaml.Node tree and a copy of it, which was most of the time and memory of
// `lore validate` on a large SillyTavern book. ok is false for text that is
// not valid JSON; ParseDoc then says what is wrong.
func scanJSON(data []byte) (root *jnode, ok bool) {
	s := &jscanner{lex: schema.NewJSONLexer(data)}
	s.lex.Space()
	if root, ok = s.value(1); !ok || !s.lex.Done() {
		return nil, false
	}
	return root, true
}

type jscanner struct {
	lex  schema.JSONLexer
	c    converter
	keys []string // keys of the objects being read
	kids []*jnode // their values, and the items of the arrays being read
}

func (s *jscanner) value(depth int) (*jnode, bool) {
	c, ok := s.lex.Peek()
	if !ok {
		return nil, false
	}
	n := s.c.nodeAt(s.lex.Pos())
	switch {
	case c == '{' || c == '[':
		if depth > schema.MaxDepth {
			return nil, false // as schema's scanner: the nesting, not the scalars
		}
		if c == '{' {
			return n, s.object(n, depth)
		}
		return n, s.array(n, depth)
	case c == '"':
		n.kind = jStr
		n.str, ok = s.lex.String()
		return n, ok
	case c == '-' || c >= '0' && c <= '9':
		raw, _, ok := s.lex.NumberText()
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			f = math.Inf(1) // out of range: kept as written
		}
		setNumber(n, f, raw)
		return n, ok
	case c == 't':
		n.kind, n.b = jBool, true
		return n, s.lex.Literal("true")
	case c == 'f':
		n.kind = jBool
		return n, s.lex.Literal("false")
	case c == 'n':
		n.kind = jNull
		return n, s.lex.Literal("null")
	}
	return nil, false
}

// object reads the members of n; their keys and values wait on the stacks
// until the object ends, so each object's shape comes from one slice.
func (s *jscanner) object(n *jnode, depth int) bool {
	s.lex.Skip() // {
	mark, vmark := len(s.keys), len(s.kids)
	if more, ok := s.first('}'); !more {
		n.makeObject(s.c.shapeOf(nil))
		return ok
	}
	for {
		if c, _ := s.lex.Peek(); c != '"' {
			return false
		}
		k, ok := s.lex.String()
		if !ok {
			return false
		}
		s.lex.Space()
		if c, _ := s.lex.Peek(); c != ':' {
			return false
		}
		s.lex.Skip()
		s.lex.Space()
		v, ok := s.value(depth + 1)
		if !ok {
			return false
		}
		s.keys, s.kids = append(s.keys, k), append(s.kids, v)
		if more, ok := s.lex.Next('}'); !ok {
			return false
		} else if !more {
			break
		}
	}
	n.makeObject(s.c.shapeOf(s.keys[mark:]))
	for i, v := range s.kids[vmark:] {
		// Like JavaScript (which wrote these files), the last duplicate wins.
		n.kids[n.shape.at(i)] = v
	}
	s.keys, s.kids = s.keys[:mark], s.kids[:vmark]
	return true
}

func (s *jscanner) array(n *jnode, depth int) bool {
	n.kind = jArr
	s.lex.Skip() // [
	mark := len(s.kids)
	if more, ok := s.first(']'); !more {
		return ok
	}
	for {
		v, ok := s.value(depth + 1)
		if !ok {
			return false
		}
		s.kids = append(s.kids, v)
		if more, ok := s.lex.Next(']'); !ok {
			return false
		} else if !more {
			break
		}
	}
	n.kids = append([]*jnode(nil), s.kids[mark:]...)
	s.kids = s.kids[:mark]
	return true
}

// first passes the space after an opening bracket and says whether members
// follow (false, ok: the container is empty and closed).
func (s *jscanner) first(closer byte) (more, ok bool) {
	s.lex.Space()
	if c, _ := s.lex.Peek(); c == closer {
		s.lex.Skip()
		return false, true
	}
	return true, true
}
