package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// parseJSON builds the same yaml.Node tree that yaml.v3 would, from the JSON in
// data[start:end], with Line/Column computed from byte offsets (columns in
// runes), so one decoder walks YAML and JSON alike. data is the whole file so
// that positions of a JSON Lines record are those of the file.
func parseJSON(path string, data []byte, start, end int) (*yaml.Node, error) {
	return parseJSONAt(&cursor{data: data, file: path, line: 1, col: 1}, start, end)
}

// parseJSONAt parses cur.data[start:end], sharing cur with earlier calls on
// the same data (JSON Lines) so positions cost linear time overall.
func parseJSONAt(cur *cursor, start, end int) (*yaml.Node, error) {
	jp := &jsonParser{
		data: cur.data, base: start,
		dec: json.NewDecoder(bytes.NewReader(cur.data[start:end])),
		cur: cur,
	}
	jp.dec.UseNumber()
	root, err := jp.value(1)
	if err != nil {
		return nil, err
	}
	off := jp.tokenStart()
	if _, err := jp.dec.Token(); err != io.EOF {
		return nil, errAt(jp.cur.at(off), "invalid JSON: unexpected content after the end of the JSON value")
	}
	return root, nil
}

type jsonParser struct {
	data []byte
	base int
	dec  *json.Decoder
	cur  *cursor
}

// tokenStart is the offset (in data) where the next token starts: the
// decoder's offset is just after the previous token, before any separators.
func (jp *jsonParser) tokenStart() int {
	off := jp.base + int(jp.dec.InputOffset())
	for off < len(jp.data) {
		switch jp.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (jp *jsonParser) fail(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off := jp.base + int(se.Offset) // the offset of the offending byte
		if off < jp.cur.off {
			off = jp.cur.off
		}
		return errAt(jp.cur.at(off), "invalid JSON: %s", se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errAt(jp.cur.at(len(jp.data)), "invalid JSON: the file ends before the JSON value does (a missing closing bracket or quote?)")
	}
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "json: ")
	return errAt(jp.cur.at(jp.tokenStart()), "invalid JSON: %s", msg)
}

func (jp *jsonParser) value(depth int) (*yaml.Node, error) {
	off := jp.tokenStart()
	tok, err := jp.dec.Token()
	if err != nil {
		return nil, jp.fail(err)
	}
	p := jp.cur.at(off)
	n := &yaml.Node{Line: p.Line, Column: p.Col}
	switch t := tok.(type) {
	case json.Delim:
		if depth > MaxDepth {
			return nil, errAt(p, "nesting is deeper than %d levels", MaxDepth)
		}
		switch t {
		case '{':
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
			for jp.dec.More() {
				koff := jp.tokenStart()
				kt, err := jp.dec.Token()
				if err != nil {
					return nil, jp.fail(err)
				}
				ks, ok := kt.(string)
				if !ok {
					return nil, errAt(jp.cur.at(koff), "invalid JSON: object key must be a string")
				}
				kp := jp.cur.at(koff)
				key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: ks, Style: yaml.DoubleQuotedStyle, Line: kp.Line, Column: kp.Col}
				v, err := jp.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, key, v)
			}
		case '[':
			n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
			for jp.dec.More() {
				v, err := jp.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, v)
			}
		default:
			return nil, errAt(p, "invalid JSON: unexpected %q", string(t))
		}
		if _, err := jp.dec.Token(); err != nil { // the closing delimiter
			return nil, jp.fail(err)
		}
		n.Style = yaml.FlowStyle
	case string:
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", t, yaml.DoubleQuotedStyle
	case json.Number:
		n.Kind, n.Value, n.Tag = yaml.ScalarNode, string(t), "!!int"
		if strings.ContainsAny(string(t), ".eE") {
			n.Tag = "!!float"
		}
	case bool:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", "false"
		if t {
			n.Value = "true"
		}
	case nil:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
	}
	return n, nil
}

// cursor turns increasing byte offsets into positions in one pass over the
// data, so a megabyte-long single-line JSON file costs linear time, not
// quadratic.
type cursor struct {
	data      []byte
	file      string
	off       int
	line, col int
}

func (c *cursor) at(off int) Pos {
	if off < c.off { // never expected; restart rather than lie
		c.off, c.line, c.col = 0, 1, 1
	}
	if c.line == 0 {
		c.line, c.col = 1, 1
	}
	if off > len(c.data) {
		off = len(c.data)
	}
	for ; c.off < off; c.off++ {
		b := c.data[c.off]
		switch {
		case b == '\n':
			c.line++
			c.col = 1
		case b&0xC0 != 0x80: // count runes: skip UTF-8 continuation bytes
			c.col++
		}
	}
	return Pos{File: c.file, Line: c.line, Col: c.col}
}
