package reply

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/outformat"
	"github.com/lorekit/lore/schema"
)

// Reply is one reply to check: its text, and where each byte of it is.
type Reply struct {
	// File is where it was read from ("stdin" for standard input).
	File string
	Text string
	// Message is the reply's number among the character messages of a
	// chat (from 1), 0 for a reply that is a file of its own.
	Message int
	at      posMap
}

// posMap maps offsets of a reply's text to positions in its file. Offsets
// are asked for in increasing order (findings are sorted first), so each
// map walks forward and costs linear time for all of a reply's findings.
type posMap interface {
	pos(off int) diag.Pos
}

// NewReply is a reply whose text is the whole file.
func NewReply(file, text string) *Reply {
	return &Reply{File: file, Text: text, at: &textMap{file: file, text: text, line: 1, col: 1}}
}

// textMap walks a plain text.
type textMap struct {
	file string
	text string
	off  int // the offset line:col is at
	line int
	col  int
}

func (m *textMap) pos(off int) diag.Pos {
	off = max(0, min(off, len(m.text)))
	if off < m.off {
		m.off, m.line, m.col = 0, 1, 1
	}
	for m.off < off {
		r, size := utf8.DecodeRuneInString(m.text[m.off:])
		if m.off+size > off {
			break // inside a rune: its position
		}
		m.off += size
		if r == '\n' {
			m.line, m.col = m.line+1, 1
		} else {
			m.col++
		}
	}
	return diag.Pos{File: m.file, Line: m.line, Col: m.col}
}

// jsonMap walks a JSON string of a .jsonl line: a decoded offset is at the
// source character (an escape counts as the characters it is written with)
// that gave it.
type jsonMap struct {
	file string
	src  []byte // from the byte after the opening quote
	line int
	col0 int // the column of the first byte of src
	// where the walk is: decoded offset, source offset, column
	dec, at, col int
}

func (m *jsonMap) pos(off int) diag.Pos {
	if off < m.dec {
		m.dec, m.at, m.col = 0, 0, m.col0
	}
	for m.dec < off && m.at < len(m.src) && m.src[m.at] != '"' {
		n, size := 1, 1 // source bytes, decoded bytes
		cols := 1
		if m.src[m.at] == '\\' && m.at+1 < len(m.src) {
			var r rune
			n, r = schema.EscapeLen(m.src[m.at+1:])
			n++
			cols = n
			size = utf8.RuneLen(r)
			if size < 0 {
				size = 3
			}
		} else {
			_, n = utf8.DecodeRune(m.src[m.at:])
			size = n
		}
		if m.dec+size > off {
			break
		}
		m.dec += size
		m.at += n
		m.col += cols
	}
	return diag.Pos{File: m.file, Line: m.line, Col: m.col}
}

// fixed maps every offset to one position (a message whose text the
// reader could not place).
type fixed diag.Pos

func (f fixed) pos(int) diag.Pos { return diag.Pos(f) }

// StdinName is the file name of replies read from standard input.
const StdinName = "stdin"

// ReadFile reads the replies of a file's data: a SillyTavern chat (a .jsonl
// file, or standard input that reads as one) gives one reply per character
// message, any other text one reply (a .txt reply of JSON lines stays one
// reply). The diagnostics are a chat's schema problems; the
// error, a *schema.ParseError, is data that is not text or a chat that does
// not parse.
func ReadFile(path string, data []byte) ([]*Reply, []diag.Diagnostic, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, nil, &schema.ParseError{Pos: NewReply(path, string(data)).at.pos(i),
			Msg: "binary data (a NUL byte), not a reply's text"}
	}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return nil, nil, &schema.ParseError{Pos: NewReply(path, string(data)).at.pos(i),
			Msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x): save the reply as UTF-8", data[i])}
	}
	chat := strings.EqualFold(filepath.Ext(path), ".jsonl")
	if path == StdinName {
		chat = schema.IsChat(path, data)
	}
	if !chat {
		return []*Reply{NewReply(path, string(data))}, nil, nil
	}
	t, ds, err := schema.ReadChat(path, data)
	if err != nil {
		return nil, ds, err
	}
	starts := outformat.LineStarts(string(data))
	var out []*Reply
	n := 0
	for _, m := range t.Messages {
		if m.Role != "assistant" {
			continue
		}
		n++
		r := &Reply{File: path, Text: m.Content, Message: n, at: fixed(m.Pos)}
		if p := m.TextPos; p.Line > 0 && p.Line <= len(starts) {
			if off := columnOffset(data, starts[p.Line-1], p.Col); off < len(data) && data[off] == '"' {
				r.at = &jsonMap{file: path, src: data[off+1:], line: p.Line, col0: p.Col + 1, col: p.Col + 1}
			}
		}
		out = append(out, r)
	}
	return out, ds, nil
}

// columnOffset is the byte offset of a rune column of the line at start.
func columnOffset(data []byte, start, col int) int {
	off := start
	for c := 1; c < col && off < len(data) && data[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(data[off:])
		off += size
	}
	return off
}

// sortFindings orders a reply's findings by offset, so positions are
// mapped walking forward once.
func sortFindings(fs []finding) {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].off < fs[j].off })
}
