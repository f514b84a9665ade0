package formats

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/lorekit/lore/diag"
)

// jkind is the kind of a parsed JSON value.
type jkind int

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

// jnode is a JSON value with the byte offset where it starts. encoding/json
// throws offsets away, and every imported entry should point back into the
// file it came from, so foreign JSON is parsed here.
type jnode struct {
	kind jkind
	off  int
	b    bool
	num  float64
	raw  string // number as written
	str  string
	arr  []*jnode
	keys []string // object keys in source order
	vals map[string]*jnode
	koff map[string]int
}

func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != jObj {
		return nil
	}
	return n.vals[key]
}

func (n *jnode) has(key string) bool { return n.get(key) != nil }

// strOf returns the string value of n, or "" when n is not a string.
func (n *jnode) strOf() (string, bool) {
	if n == nil || n.kind != jStr {
		return "", false
	}
	return n.str, true
}

func (n *jnode) numOf() (float64, bool) {
	if n == nil || n.kind != jNum {
		return 0, false
	}
	return n.num, true
}

func (n *jnode) boolOf() (bool, bool) {
	if n == nil || n.kind != jBool {
		return false, false
	}
	return n.b, true
}

// value converts n to the model's plain values: string, float64, bool, nil,
// []any, map[string]any.
func (n *jnode) value() any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case jBool:
		return n.b
	case jNum:
		return n.num
	case jStr:
		return n.str
	case jArr:
		out := make([]any, len(n.arr))
		for i, c := range n.arr {
			out[i] = c.value()
		}
		return out
	case jObj:
		out := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			out[k] = n.vals[k].value()
		}
		return out
	}
	return nil
}

// maxJSONDepth bounds nesting so a hostile file cannot exhaust the stack.
const maxJSONDepth = 200

// SyntaxError is a JSON file that does not parse, with the position of the
// problem.
type SyntaxError struct {
	Pos diag.Pos
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s: %s", e.Pos, e.Msg) }

type jparser struct {
	data  []byte
	i     int
	depth int
	lines *lineIndex
}

// parseJSON parses data (one JSON value, surrounded by optional whitespace).
func parseJSON(file string, data []byte) (*jnode, *lineIndex, error) {
	li := newLineIndex(file, data)
	p := &jparser{data: data, lines: li}
	p.ws()
	n, err := p.value()
	if err != nil {
		return nil, li, err
	}
	p.ws()
	if p.i < len(p.data) {
		return nil, li, p.errAt(p.i, "unexpected %s after the JSON value", p.what())
	}
	return n, li, nil
}

func (p *jparser) errAt(off int, format string, args ...any) error {
	return &SyntaxError{Pos: p.lines.pos(off), Msg: "invalid JSON: " + fmt.Sprintf(format, args...)}
}

func (p *jparser) eof() error {
	return p.errAt(len(p.data), "unexpected end of file (the file looks truncated)")
}

func (p *jparser) what() string {
	if p.i >= len(p.data) {
		return "end of file"
	}
	r, _ := utf8.DecodeRune(p.data[p.i:])
	return strconv.QuoteRune(r)
}

func (p *jparser) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jparser) value() (*jnode, error) {
	if p.i >= len(p.data) {
		return nil, p.eof()
	}
	start := p.i
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jnode{kind: jStr, off: start, str: s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		for _, lit := range []struct {
			word string
			n    jnode
		}{{"true", jnode{kind: jBool, b: true}}, {"false", jnode{kind: jBool}}, {"null", jnode{kind: jNull}}} {
			if hasPrefixAt(p.data, p.i, lit.word) {
				p.i += len(lit.word)
				n := lit.n
				n.off = start
				return &n, nil
			}
		}
		if len(p.data)-p.i < 5 && (hasPrefixAt([]byte("true"), 0, string(p.data[p.i:])) ||
			hasPrefixAt([]byte("false"), 0, string(p.data[p.i:])) || hasPrefixAt([]byte("null"), 0, string(p.data[p.i:]))) {
			return nil, p.eof()
		}
		return nil, p.errAt(p.i, "unexpected %s where a value should start", p.what())
	}
}

func hasPrefixAt(data []byte, i int, s string) bool {
	return len(data)-i >= len(s) && string(data[i:i+len(s)]) == s
}

func (p *jparser) enter() error {
	p.depth++
	if p.depth > maxJSONDepth {
		return p.errAt(p.i, "nested deeper than %d levels", maxJSONDepth)
	}
	return nil
}

func (p *jparser) object() (*jnode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &jnode{kind: jObj, off: p.i, vals: map[string]*jnode{}, koff: map[string]int{}}
	p.i++ // {
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return n, nil
	}
	for {
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.eof()
		}
		if p.data[p.i] != '"' {
			return nil, p.errAt(p.i, "unexpected %s where an object key (a quoted string) should be", p.what())
		}
		koff := p.i
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.eof()
		}
		if p.data[p.i] != ':' {
			return nil, p.errAt(p.i, "unexpected %s after key %q (want ':')", p.what(), k)
		}
		p.i++
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if _, dup := n.vals[k]; !dup {
			n.keys = append(n.keys, k)
		}
		// Like JavaScript (which wrote these files), the last duplicate wins.
		n.vals[k] = v
		n.koff[k] = koff
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.eof()
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return n, nil
		default:
			return nil, p.errAt(p.i, "unexpected %s in an object (want ',' or '}')", p.what())
		}
	}
}

func (p *jparser) array() (*jnode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &jnode{kind: jArr, off: p.i}
	p.i++
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return n, nil
	}
	for {
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.arr = append(n.arr, v)
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.eof()
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return n, nil
		default:
			return nil, p.errAt(p.i, "unexpected %s in an array (want ',' or ']')", p.what())
		}
	}
}

func (p *jparser) str() (string, error) {
	start := p.i
	p.i++ // opening quote
	escaped := false
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			raw := p.data[start:p.i]
			if !escaped {
				if !utf8.Valid(raw) {
					return string([]rune(string(raw[1 : len(raw)-1]))), nil
				}
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", p.errAt(start, "bad escape in string")
			}
			return s, nil
		case c == '\\':
			escaped = true
			p.i += 2
		case c < 0x20:
			return "", p.errAt(p.i, "control character in a string (a string must be closed on its line)")
		default:
			p.i++
		}
	}
	return "", p.eof()
}

func (p *jparser) number() (*jnode, error) {
	start := p.i
	if p.data[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		s := p.i
		for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
			p.i++
		}
		return p.i - s
	}
	first := p.i
	if n := digits(); n == 0 {
		if p.i >= len(p.data) {
			return nil, p.eof()
		}
		return nil, p.errAt(p.i, "bad number")
	} else if n > 1 && p.data[first] == '0' {
		return nil, p.errAt(first, "bad number: leading zero")
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.errAt(p.i, "bad number: no digits after '.'")
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.errAt(p.i, "bad number: no digits in the exponent")
		}
	}
	raw := string(p.data[start:p.i])
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return nil, p.errAt(start, "number %s out of range", raw)
	}
	return &jnode{kind: jNum, off: start, num: f, raw: raw}, nil
}

// lineIndex turns byte offsets into 1-based line and rune column. Minified
// JSON is one long line, so columns are counted from checkpoints (every few
// KB of the line) rather than from the line start: positions stay O(log n).
type lineIndex struct {
	file   string
	data   []byte
	starts []int
	cps    map[int][]checkpoint // line → checkpoints, built on first use
}

type checkpoint struct{ off, col int }

const checkpointEvery = 4096

func newLineIndex(file string, data []byte) *lineIndex {
	li := &lineIndex{file: file, data: data, starts: []int{0}, cps: map[int][]checkpoint{}}
	for i, c := range data {
		if c == '\n' {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

func (li *lineIndex) pos(off int) diag.Pos {
	if li == nil {
		return diag.Pos{}
	}
	if off > len(li.data) {
		off = len(li.data)
	}
	line := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	from, col := li.starts[line], 1
	if off-from > checkpointEvery {
		cps := li.checkpoints(line)
		if i := sort.Search(len(cps), func(i int) bool { return cps[i].off > off }) - 1; i >= 0 {
			from, col = cps[i].off, cps[i].col
		}
	}
	col += utf8.RuneCount(li.data[from:off])
	return diag.Pos{File: li.file, Line: line + 1, Col: col}
}

func (li *lineIndex) checkpoints(line int) []checkpoint {
	if cps, ok := li.cps[line]; ok {
		return cps
	}
	end := len(li.data)
	if line+1 < len(li.starts) {
		end = li.starts[line+1]
	}
	var cps []checkpoint
	col, last := 1, li.starts[line]
	for i := li.starts[line]; i < end; {
		if i-last >= checkpointEvery {
			cps = append(cps, checkpoint{i, col})
			last = i
		}
		_, size := utf8.DecodeRune(li.data[i:])
		i += size
		col++
	}
	li.cps[line] = cps
	return cps
}

// jsonValid is encoding/json's verdict, for tests and fuzzing.
func jsonValid(data []byte) bool { return json.Valid(data) }
