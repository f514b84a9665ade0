package schema

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

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
// These two are lore's only JSON parsers: every other reader of JSON
// (formats' importers through jnode, lore test, the loaders) walks the node
// tree they build, so positions, limits and syntax errors are the same
// everywhere.
func scanJSON(data []byte, start, end int, first Pos) (*yaml.Node, bool) {
	s := &jsonScanner{
		data: data, i: start, end: end, str: string(data[start:end]), base: start,
		line: first.Line, lineStart: start, colBase: first.Col,
	}
	s.space()
	n, ok := s.value(1)
	if !ok {
		return nil, false
	}
	s.space()
	return n, s.i == s.end
}

type jsonScanner struct {
	data []byte
	i    int // next byte to read
	end  int
	// str is data[base:end] as one string: string values are substrings of
	// it, so a value without escapes costs no allocation of its own.
	str  string
	base int

	// Position of the byte at i: line, the offset where the line starts (or
	// where the scan started on its first line), the column there, and the
	// UTF-8 continuation bytes seen on the line since.
	line, lineStart, colBase, cont int

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
	n.Line, n.Column = s.line, s.colBase+(s.i-s.lineStart)-s.cont
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

func (s *jsonScanner) space() {
	for s.i < s.end {
		switch s.data[s.i] {
		case ' ', '\t', '\r':
		case '\n':
			s.line++
			s.lineStart, s.colBase, s.cont = s.i+1, 1, 0
		default:
			return
		}
		s.i++
	}
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
		v, ok := s.string()
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
	s.space()
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
		v, ok := s.string()
		if !ok {
			return nil, false
		}
		k.Value = v
		s.space()
		if s.i >= s.end || s.data[s.i] != ':' {
			return nil, false
		}
		s.i++
		s.space()
		val, ok := s.value(depth + 1)
		if !ok {
			return nil, false
		}
		s.stack = append(s.stack, k, val)
		if more, ok := s.next('}'); !ok {
			return nil, false
		} else if !more {
			n.Content = s.content(mark)
			return n, true
		}
	}
}

// next reads what follows a member or an element: ',' (more follow) or
// the closer (the container ends); anything else is a syntax error.
func (s *jsonScanner) next(closer byte) (more, ok bool) {
	s.space()
	if s.i >= s.end {
		return false, false
	}
	switch s.data[s.i] {
	case ',':
		s.i++
		s.space()
		return true, true
	case closer:
		s.i++
		return false, true
	}
	return false, false
}

func (s *jsonScanner) array(depth int) (*yaml.Node, bool) {
	if depth > MaxDepth {
		return nil, false
	}
	n := s.node(yaml.SequenceNode, "!!seq")
	n.Style = yaml.FlowStyle
	s.i++ // [
	mark := len(s.stack)
	s.space()
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
		if more, ok := s.next(']'); !ok {
			return nil, false
		} else if !more {
			n.Content = s.content(mark)
			return n, true
		}
	}
}

// string reads a string starting at its opening quote.
func (s *jsonScanner) string() (string, bool) {
	s.i++
	from := s.i
	for s.i < s.end {
		c := s.data[s.i]
		switch {
		case c == '"':
			v := s.str[from-s.base : s.i-s.base]
			s.i++
			return v, true
		case c == '\\':
			return s.escaped(from)
		case c < 0x20:
			return "", false
		case c&0xC0 == 0x80:
			s.cont++
		}
		s.i++
	}
	return "", false
}

// escaped finishes a string that has escapes, decoding them as encoding/json
// does (a bad surrogate becomes U+FFFD).
func (s *jsonScanner) escaped(from int) (string, bool) {
	b := make([]byte, 0, s.i-from+16)
	b = append(b, s.data[from:s.i]...)
	for s.i < s.end {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			return string(b), true
		case c < 0x20:
			return "", false
		case c != '\\':
			if c&0xC0 == 0x80 {
				s.cont++
			}
			b = append(b, c)
			s.i++
			continue
		}
		if s.i+1 >= s.end {
			return "", false
		}
		switch e := s.data[s.i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := s.hex4(s.i + 2)
			if !ok {
				return "", false
			}
			s.i += 6
			if utf16.IsSurrogate(r) {
				if r2, ok := s.hex4(s.i + 2); ok && s.i+1 < s.end && s.data[s.i] == '\\' && s.data[s.i+1] == 'u' {
					if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
						s.i += 6
						b = utf8.AppendRune(b, d)
						continue
					}
				}
				r = unicode.ReplacementChar
			}
			b = utf8.AppendRune(b, r)
			continue
		default:
			return "", false
		}
		s.i += 2
	}
	return "", false
}

// hex4 reads the four hex digits of a \u escape at data[at:].
func (s *jsonScanner) hex4(at int) (rune, bool) {
	if at+4 > s.end {
		return 0, false
	}
	var r rune
	for _, c := range s.data[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, kept as written.
func (s *jsonScanner) number() (*yaml.Node, bool) {
	n := s.node(yaml.ScalarNode, "!!int")
	from := s.i
	digits := func() bool {
		d := s.i
		for s.i < s.end && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
			s.i++
		}
		return s.i > d
	}
	if s.data[s.i] == '-' {
		s.i++
	}
	if s.i < s.end && s.data[s.i] == '0' {
		s.i++
	} else if !digits() {
		return nil, false
	}
	if s.i < s.end && s.data[s.i] == '.' {
		s.i++
		if !digits() {
			return nil, false
		}
		n.Tag = "!!float"
	}
	if s.i < s.end && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		s.i++
		if s.i < s.end && (s.data[s.i] == '+' || s.data[s.i] == '-') {
			s.i++
		}
		if !digits() {
			return nil, false
		}
		n.Tag = "!!float"
	}
	n.Value = s.str[from-s.base : s.i-s.base]
	return n, true
}

func (s *jsonScanner) literal(word, tag string) (*yaml.Node, bool) {
	if s.i+len(word) > s.end || string(s.data[s.i:s.i+len(word)]) != word {
		return nil, false
	}
	n := s.node(yaml.ScalarNode, tag)
	n.Value = word
	s.i += len(word)
	return n, true
}
