package schema

import (
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// contentPos records where the text of content starts and, where the source
// maps one to one onto the text, a function from offsets to positions.
func (d *decoder) contentPos(e *Entry, v *yaml.Node) {
	at := v
	v = resolve(v)
	e.ContentPos = d.pos(at)
	if at != v { // an alias: point at the alias, the text lives elsewhere
		return
	}
	switch v.Style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		// yaml.v3 gives the indicator's line; the text starts on the next line,
		// at the block's indentation.
		if d.li == nil {
			d.li = newLineIndex(d.file, d.data)
		}
		first := v.Line + 1
		indent := blockIndent(d.li, first)
		e.ContentPos = Pos{File: d.file, Line: first, Col: indent + 1}
		if v.Style == yaml.LiteralStyle {
			file, content := d.file, e.Content
			var c textCursor // line and column of offset c.i
			e.ContentLine = func(off int) Pos {
				off = max(0, min(off, len(content)))
				c.mu.Lock()
				defer c.mu.Unlock()
				if off < c.i {
					c.i, c.line, c.col = 0, 0, 0
				}
				for ; c.i < off; c.i++ {
					switch b := content[c.i]; {
					case b == '\n':
						c.line, c.col = c.line+1, 0
					case b&0xc0 != 0x80:
						c.col++
					}
				}
				return Pos{File: file, Line: first + c.line, Col: indent + 1 + c.col}
			}
		}
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		e.ContentPos.Col++ // past the quote
		if d.li == nil {
			d.li = newLineIndex(d.file, d.data)
		}
		if off := d.li.offset(v.Line, v.Column); off >= 0 {
			e.ContentLine = quotedLine(d.file, e.ContentPos, d.data[off:], v.Style == yaml.SingleQuotedStyle)
		}
	case 0: // plain
		if !strings.Contains(e.Content, "\n") {
			e.ContentLine = sameLine(d.file, e.ContentPos, e.Content)
		}
	}
}

// quotedLine maps offsets of the text of a quoted scalar that starts at src
// (its opening quote) and ends on the same line, decoding escapes as it goes,
// so a finding in a JSON string with \n and \u escapes lands on its column.
// A string that runs over several lines gives nil (use ContentPos).
func quotedLine(file string, p Pos, src []byte, single bool) func(int) Pos {
	if len(src) == 0 || (src[0] != '"' && src[0] != '\'') {
		return nil
	}
	// Check that the literal closes on this line.
	closed := false
	for i := 1; i < len(src) && src[i] != '\n'; i++ {
		if single && src[i] == '\'' {
			if i+1 < len(src) && src[i+1] == '\'' {
				i++
				continue
			}
			closed = true
			break
		}
		if !single && src[i] == '\\' {
			i++
			continue
		}
		if !single && src[i] == '"' {
			closed = true
			break
		}
	}
	if !closed {
		return nil
	}
	var cur struct {
		sync.Mutex
		col, content, i int
	}
	return func(off int) Pos {
		cur.Lock()
		defer cur.Unlock()
		if cur.i == 0 || off < cur.content {
			cur.col, cur.content, cur.i = p.Col, 0, 1
		}
		col, content, i := cur.col, cur.content, cur.i
		defer func() { cur.col, cur.content, cur.i = col, content, i }()
		for content < off && i < len(src) {
			c := src[i]
			switch {
			case single && c == '\'':
				if i+1 < len(src) && src[i+1] == '\'' {
					content++
					i += 2
					col += 2
					continue
				}
				return Pos{File: file, Line: p.Line, Col: col}
			case !single && c == '"':
				return Pos{File: file, Line: p.Line, Col: col}
			case !single && c == '\\' && i+1 < len(src):
				n, r := escapeLen(src[i+1:])
				content += utf8.RuneLen(r)
				i += 1 + n
				col += 1 + n
			default:
				_, size := utf8.DecodeRune(src[i:])
				content += size
				i += size
				col++
			}
		}
		return Pos{File: file, Line: p.Line, Col: col}
	}
}

// escapeLen reads the escape after a backslash in a JSON or YAML
// double-quoted string: how many source characters it takes and the rune it
// stands for (a JSON surrogate pair is one rune).
func escapeLen(b []byte) (int, rune) {
	hex := func(s []byte) (rune, bool) {
		var r rune
		for _, c := range s {
			switch {
			case c >= '0' && c <= '9':
				r = r*16 + rune(c-'0')
			case c >= 'a' && c <= 'f':
				r = r*16 + rune(c-'a'+10)
			case c >= 'A' && c <= 'F':
				r = r*16 + rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		return r, true
	}
	width := 0
	switch b[0] {
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	}
	if width == 0 || len(b) < 1+width {
		r, _ := utf8.DecodeRune(b)
		if r == 'N' || r == '_' {
			return 1, 0x85 // both are two-byte runes in UTF-8
		}
		if r == 'L' || r == 'P' {
			return 1, 0x2028
		}
		return 1, 'x' // one-byte escapes: \n \t \" \\ \/ ...
	}
	r, ok := hex(b[1 : 1+width])
	if !ok {
		return 1, 'x'
	}
	if b[0] == 'u' && r >= 0xD800 && r < 0xDC00 && len(b) >= 11 && b[5] == '\\' && b[6] == 'u' {
		if lo, ok := hex(b[7:11]); ok && lo >= 0xDC00 && lo < 0xE000 {
			return 11, 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
		}
	}
	if r > utf8.MaxRune || (r >= 0xD800 && r < 0xE000) {
		r = utf8.RuneError
	}
	return 1 + width, r
}

// sameLine maps offsets of a one-line scalar written without escapes.
func sameLine(file string, p Pos, content string) func(int) Pos {
	var c textCursor
	return func(off int) Pos {
		off = max(0, min(off, len(content)))
		c.mu.Lock()
		defer c.mu.Unlock()
		if off < c.i {
			c.i, c.col = 0, 0
		}
		c.col += utf8.RuneCountInString(content[c.i:off])
		c.i = off
		return Pos{File: file, Line: p.Line, Col: p.Col + c.col}
	}
}

// textCursor is where the last offset asked of a ContentLine function was:
// findings come in the order of the text, so each continues from the last
// and thousands of them in one entry cost one pass over its text, not one
// each. Rules run concurrently, hence the lock.
type textCursor struct {
	mu           sync.Mutex
	i, line, col int
}

// blockIndent is the indentation of the first non-blank line from line on.
func blockIndent(li *lineIndex, line int) int {
	for l := line; l <= len(li.starts); l++ {
		off := li.starts[l-1]
		n := 0
		for off+n < len(li.data) && li.data[off+n] == ' ' {
			n++
		}
		if off+n < len(li.data) && li.data[off+n] != '\n' && li.data[off+n] != '\r' {
			return n
		}
	}
	return 0
}
