package outformat

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/schema"
)

// Source is one entry's content, read for templates. Its methods map offsets
// of YAML values back to offsets of the content; it is not safe for use by
// several goroutines at once.
type Source struct {
	Content string
	lines   []int                // line start offsets of Content
	values  map[*yaml.Node][]int // line start offsets of a scalar's decoded value
	indents map[*yaml.Node]int   // a block scalar's indentation
}

// NewSource reads content for templates.
func NewSource(content string) *Source {
	return &Source{Content: content, lines: LineStarts(content)}
}

// LineStarts lists the offsets at which the lines of s start.
func LineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// Block is the byte range of one output-format block in the content: the
// lines after a `---` line up to a `...` line, the next `---` or the end.
type Block struct{ Start, End int }

// Blocks finds the content's blocks, in order.
func (s *Source) Blocks() []Block {
	var out []Block
	open := -1
	off := 0
	for _, raw := range strings.SplitAfter(s.Content, "\n") {
		lineOff := off
		off += len(raw)
		line := strings.TrimRight(raw, " \t\r\n")
		switch line {
		case "---":
			if open >= 0 {
				out = append(out, Block{open, lineOff})
			}
			open = off
		case "...":
			if open >= 0 {
				out = append(out, Block{open, lineOff})
				open = -1
			}
		}
	}
	if open >= 0 && open < len(s.Content) {
		out = append(out, Block{open, len(s.Content)})
	}
	return out
}

// SyntaxError is a block that looks like a template (it has a `format:` or
// `rule:` key) but is not valid YAML. Offset is where in the content the
// problem is; Msg says what it is, without yaml.v3's "yaml: " prefix.
type SyntaxError struct {
	Offset int
	Msg    string
}

var templateKeyRe = regexp.MustCompile(`(?m)^\s*(format|rule)\s*:`)

// Parse parses a block. A blank block, a block that is not a YAML mapping (a
// `---` used as a plain separator) and a block that does not parse but has no
// `format:` or `rule:` key are not templates: Parse returns nil for them, and
// a *SyntaxError only for a template that does not parse.
func (s *Source) Parse(b Block) (*yaml.Node, *SyntaxError) {
	text := s.Content[b.Start:b.End]
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		if !templateKeyRe.MatchString(text) {
			return nil, nil
		}
		se := &SyntaxError{Offset: b.Start, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
		if line, _, problem, ok := schema.YAMLErrorLine([]byte(text), err); ok {
			se.Offset, se.Msg = s.LineOffset(b, line, 1), problem
		}
		return nil, se
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil
	}
	return doc.Content[0], nil
}

// LineOffset is the content offset of a 1-based line and column (in runes)
// of block b, as yaml.v3 counts them in the block's text.
func (s *Source) LineOffset(b Block, line, col int) int {
	// The block starts at a line start (just after its `---` line).
	i := sort.SearchInts(s.lines, b.Start) + line - 1
	if i < 0 || i >= len(s.lines) {
		return b.Start
	}
	start := s.lines[i]
	end := len(s.Content)
	if i+1 < len(s.lines) {
		end = s.lines[i+1]
	}
	lineText := s.Content[start:end]
	off := 0
	for n := 1; n < col && off < len(lineText); n++ {
		_, size := utf8.DecodeRuneInString(lineText[off:])
		off += size
	}
	return start + off
}

// ValueOffset maps a byte offset inside a scalar's decoded value to the
// content. Literal and folded block scalars keep one source line per value
// line, indented; quoted and plain scalars start at the node's column (after
// the quote), and a later line of them maps to the node's start.
func (s *Source) ValueOffset(b Block, n *yaml.Node, at int) int {
	starts, ok := s.values[n]
	if !ok {
		if s.values == nil {
			s.values = map[*yaml.Node][]int{}
		}
		starts = LineStarts(n.Value)
		s.values[n] = starts
	}
	at = max(0, min(at, len(n.Value)))
	// The line of at: the last line that starts at or before it.
	line := sort.SearchInts(starts, at+1) - 1
	col := at - starts[line]
	switch n.Style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		// Every line of the block is indented by the block's indentation,
		// the first non-blank line's: what a line has beyond it is part of
		// the value, and counted in col.
		start := s.LineOffset(b, n.Line+1+line, 1)
		return min(start+min(s.blockIndent(b, n), s.lineLen(start))+col, len(s.Content))
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		if line == 0 {
			return min(s.LineOffset(b, n.Line, n.Column)+1+col, len(s.Content))
		}
	default:
		if line == 0 {
			return min(s.LineOffset(b, n.Line, n.Column)+col, len(s.Content))
		}
	}
	return s.LineOffset(b, n.Line, n.Column)
}

// blockIndent is the indentation of a block scalar: that of its first
// non-blank line.
func (s *Source) blockIndent(b Block, n *yaml.Node) int {
	if in, ok := s.indents[n]; ok {
		return in
	}
	if s.indents == nil {
		s.indents = map[*yaml.Node]int{}
	}
	in := 0
	for l := n.Line + 1; ; l++ {
		start := s.LineOffset(b, l, 1)
		if start >= b.End || start == b.Start {
			break
		}
		line := s.Content[start : start+s.lineLen(start)]
		if t := strings.TrimLeft(line, " "); strings.TrimSpace(t) != "" {
			in = len(line) - len(t)
			break
		}
	}
	s.indents[n] = in
	return in
}

// lineLen is the length of the content's line that starts at start, without
// its line break.
func (s *Source) lineLen(start int) int {
	rest := s.Content[start:]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		return nl
	}
	return len(rest)
}
