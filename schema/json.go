package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

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
// the same data (JSON Lines) so positions cost linear time overall. Valid
// JSON takes scanJSON's fast path; invalid JSON is parsed again by
// encoding/json to say what is wrong and where.
func parseJSONAt(cur *cursor, start, end int) (*yaml.Node, error) {
	if n, ok := scanJSON(cur.data, start, end, cur.at(start)); ok {
		return n, nil
	}
	return parseJSONTokens(cur, start, end)
}

// parseJSONTokens parses with encoding/json's Token API: slow, but its
// syntax errors are the standard library's judgement, which fail rewords.
func parseJSONTokens(cur *cursor, start, end int) (*yaml.Node, error) {
	jp := &jsonParser{
		data: cur.data, base: start, end: end,
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
	base int // where this value starts in data
	end  int // where it ends
	dec  *json.Decoder
	cur  *cursor
}

// tokenStart is the offset (in data) where the next token starts: the
// decoder's offset is just after the previous token, before any separators.
func (jp *jsonParser) tokenStart() int {
	off := jp.base + int(jp.dec.InputOffset())
	for off < jp.end {
		switch jp.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// fail turns a decoder error into a positioned, readable one. start is where
// the token being read begins: encoding/json's offsets inside a string, number
// or literal are not positions in the file, so that token is decoded again on
// its own to find the offending byte.
func (jp *jsonParser) fail(err error, start int) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// Token's own errors (between tokens) give the offending byte's index;
		// errors inside a token come from a nested decode and are re-found.
		off := jp.base + int(se.Offset)
		var v any
		var again *json.SyntaxError
		if start < jp.end && errors.As(json.NewDecoder(bytes.NewReader(jp.data[start:jp.end])).Decode(&v), &again) {
			off = start + int(again.Offset) - 1
		}
		off = max(off, jp.cur.off, 0)
		return errAt(jp.cur.at(off), "invalid JSON: %s", describeJSONError(se.Error(), jp.data, off))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errAt(jp.cur.at(jp.end), "invalid JSON: unexpected end of file (the file looks truncated)")
	}
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "json: ")
	return errAt(jp.cur.at(jp.tokenStart()), "invalid JSON: %s", msg)
}

// describeJSONError rewords encoding/json's "invalid character 'x' <context>"
// into what a person editing the file needs to hear.
func describeJSONError(msg string, data []byte, off int) string {
	what := "end of file"
	if off < len(data) {
		r, _ := utf8.DecodeRune(data[off:])
		what = strconv.QuoteRune(r)
	}
	if (what == "']'" || what == "'}'") && prevNonSpace(data, off) == ',' {
		return "a trailing comma before " + what + " is not allowed in JSON"
	}
	switch {
	case strings.HasSuffix(msg, "'"), strings.HasSuffix(msg, "looking for beginning of object key string"):
		// No context: the decoder had just read '{'.
		return "unexpected " + what + " where an object key (a quoted string) should be"
	case strings.HasSuffix(msg, "after object key"):
		return "unexpected " + what + " after an object key (want ':')"
	case strings.HasSuffix(msg, "after object key:value pair"):
		return "unexpected " + what + " in an object (want ',' or '}')"
	case strings.HasSuffix(msg, "after array element"):
		return "unexpected " + what + " in an array (want ',' or ']')"
	case strings.HasSuffix(msg, "in string literal"):
		return "control character " + what + " in a string (write it as an escape such as \\n, or close the string)"
	case strings.Contains(msg, "in string escape code"), strings.Contains(msg, "hexadecimal character escape"):
		return "bad escape " + what + " in a string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"
	case strings.Contains(msg, "numeric literal"), strings.Contains(msg, "decimal point"), strings.Contains(msg, "exponent"):
		return "bad number: unexpected " + what
	case strings.Contains(msg, "in literal"):
		return "unexpected " + what + " in a literal (JSON has true, false and null, in lower case)"
	case strings.Contains(msg, "looking for beginning of value"):
		return "unexpected " + what + " where a value should start"
	case strings.Contains(msg, "after top-level value"):
		return "unexpected " + what + " after the end of the JSON value"
	}
	return strings.TrimPrefix(msg, "json: ")
}

func (jp *jsonParser) value(depth int) (*yaml.Node, error) {
	off := jp.tokenStart()
	tok, err := jp.dec.Token()
	if err != nil {
		return nil, jp.fail(err, off)
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
					return nil, jp.fail(err, koff)
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
		if end := jp.tokenStart(); true {
			if _, err := jp.dec.Token(); err != nil { // the closing delimiter
				return nil, jp.fail(err, end)
			}
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

func prevNonSpace(data []byte, off int) byte {
	for i := min(off, len(data)) - 1; i >= 0; i-- {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return data[i]
	}
	return 0
}
