package reply

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/outformat"
)

// The first step of reading a template text: its pieces (literal text,
// ${…}, $(…), `...`) and its lines of pieces (template.go compiles them).

// pieces reads a template text.
func (c *compiler) pieces(node *yaml.Node) []piece {
	s := node.Value
	if c.spend(len(s)/16 + 1) {
		return nil
	}
	t := outformat.ScanText(s)
	var out []piece
	last := 0
	for _, m := range t.Markers {
		out = c.literal(out, node, last, m.At)
		inner := m.Inner(s)
		name := strings.TrimSpace(inner)
		at := m.At + 2 + strings.Index(inner, name)
		switch {
		case m.Open == "$(":
			out = append(out, piece{kind: pInstr, text: name, node: node, at: at})
			c.instr(out[len(out)-1])
		case c.parts[name] != nil:
			out = append(out, piece{kind: pRef, text: name, node: node, at: at})
		case c.fields[name]:
			out = append(out, piece{kind: pField, text: name, node: node, at: at})
		default:
			out = append(out, piece{kind: pFill, text: name, node: node, at: at})
		}
		last = m.End
	}
	// An unclosed ${ (format-template warns of it) is printed as it is.
	return c.literal(out, node, last, len(s))
}

// literal adds the text s[from:to] of node: one piece per line, with a line
// break as an empty pLit with text "\n", and each `...` in a line as a fill.
func (c *compiler) literal(out []piece, node *yaml.Node, from, to int) []piece {
	s := node.Value
	for from < to {
		end := to
		if nl := strings.IndexByte(s[from:to], '\n'); nl >= 0 {
			end = from + nl
		}
		line := s[from:end]
		for {
			i := dotsAt(line)
			if i < 0 {
				break
			}
			if i > 0 {
				out = append(out, piece{kind: pLit, text: line[:i], node: node, at: from})
			}
			out = append(out, piece{kind: pFill, text: "...", node: node, at: from + i, dots: true})
			line, from = line[i+3:], from+i+3
		}
		if line != "" {
			out = append(out, piece{kind: pLit, text: line, node: node, at: from})
		}
		if end < to {
			out = append(out, piece{kind: pLit, text: "\n", node: node, at: end})
			end++
		}
		from = end
	}
	return out
}

// dotsAt is the offset of the first `...` of s that is not part of a longer
// run of dots, or -1.
func dotsAt(s string) int {
	for i := 0; i+3 <= len(s); i++ {
		if s[i:i+3] != "..." {
			continue
		}
		j := i + 3
		for j < len(s) && s[j] == '.' {
			j++
		}
		if j-i == 3 && (i == 0 || s[i-1] != '.') {
			return i
		}
		i = j
	}
	return -1
}

// lines splits pieces at line breaks.
func lines(ps []piece) [][]piece {
	var out [][]piece
	cur := []piece{}
	for _, p := range ps {
		if p.kind == pLit && p.text == "\n" {
			out = append(out, cur)
			cur = []piece{}
			continue
		}
		cur = append(cur, p)
	}
	return append(out, cur)
}

func isBlank(p piece) bool { return p.kind == pLit && strings.TrimSpace(p.text) == "" }

// content is the line's pieces without blank literals and instructions.
func content(line []piece) []piece {
	var out []piece
	for _, p := range line {
		if !isBlank(p) && p.kind != pInstr {
			out = append(out, p)
		}
	}
	return out
}

// shorten cuts s to n runes, marking the cut with "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return strings.TrimRightFunc(string(rs[:n-1]), unicode.IsSpace) + "…"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
