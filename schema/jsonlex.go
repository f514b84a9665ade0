package schema

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// JSONLexer reads the tokens of valid JSON and knows the line and column of
// the byte it is at. It says only whether the text is valid, never why not
// (parseJSONAt parses invalid JSON again with encoding/json for that). It is
// shared by the two trees built from JSON: schema's yaml.Node tree and the
// importers' (formats), so both accept the same text and give the same
// positions.
type JSONLexer struct {
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
}

// NewJSONLexer reads all of data, which starts at line 1, column 1.
func NewJSONLexer(data []byte) JSONLexer {
	return lexerAt(data, 0, len(data), Pos{Line: 1, Col: 1})
}

func lexerAt(data []byte, start, end int, first Pos) JSONLexer {
	return JSONLexer{
		data: data, i: start, end: end, str: string(data[start:end]), base: start,
		line: first.Line, lineStart: start, colBase: first.Col,
	}
}

// Pos is the line and column of the next byte.
func (s *JSONLexer) Pos() (line, col int) {
	return s.line, s.colBase + (s.i - s.lineStart) - s.cont
}

// Peek is the next byte; false at the end.
func (s *JSONLexer) Peek() (byte, bool) {
	if s.i >= s.end {
		return 0, false
	}
	return s.data[s.i], true
}

// Skip passes the next byte, a bracket or a colon that Peek saw.
func (s *JSONLexer) Skip() { s.i++ }

// Done says whether only white space is left.
func (s *JSONLexer) Done() bool {
	s.Space()
	return s.i == s.end
}

// Space passes white space.
func (s *JSONLexer) Space() {
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

// Next reads what follows a member or an element: ',' (more follow) or
// the closer (the container ends); anything else is a syntax error.
func (s *JSONLexer) Next(closer byte) (more, ok bool) {
	s.Space()
	if s.i >= s.end {
		return false, false
	}
	switch s.data[s.i] {
	case ',':
		s.i++
		s.Space()
		return true, true
	case closer:
		s.i++
		return false, true
	}
	return false, false
}

// String reads a string starting at its opening quote.
func (s *JSONLexer) String() (string, bool) {
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
func (s *JSONLexer) escaped(from int) (string, bool) {
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
func (s *JSONLexer) hex4(at int) (rune, bool) {
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

// NumberText reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, as
// written; float says it has a fraction or an exponent.
func (s *JSONLexer) NumberText() (raw string, float, ok bool) {
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
		return "", false, false
	}
	if s.i < s.end && s.data[s.i] == '.' {
		s.i++
		if !digits() {
			return "", false, false
		}
		float = true
	}
	if s.i < s.end && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		s.i++
		if s.i < s.end && (s.data[s.i] == '+' || s.data[s.i] == '-') {
			s.i++
		}
		if !digits() {
			return "", false, false
		}
		float = true
	}
	return s.str[from-s.base : s.i-s.base], float, true
}

// Literal reads word (true, false or null) if it is next.
func (s *JSONLexer) Literal(word string) bool {
	if s.i+len(word) > s.end || string(s.data[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}
