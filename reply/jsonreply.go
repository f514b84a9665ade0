package reply

import (
	"errors"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/outformat"
	"github.com/lorekit/lore/schema"
)

// checkJSON finds the JSON of a JSON format in text[from:to] (in a ```
// fence when there is one, else from the first line that starts with [ or
// {), parses it and checks it against the format's type.
func (fc *formatCheck) checkJSON(from, to int) {
	js := fc.f.json
	text := fc.r.Text[from:to]
	start, end := jsonSpan(text)
	if start < 0 {
		fc.absent()
		return
	}
	src := text[start:end]
	base := from + start
	node, err := schema.ParseBytes("reply.json", []byte(src))
	lc := &lineCols{text: src}
	if err != nil {
		var pe *schema.ParseError
		msg := err.Error()
		off := 0
		if errors.As(err, &pe) {
			msg = pe.Msg
			if pe.Pos.Line > 0 {
				off = lc.offset(pe.Pos.Line, pe.Pos.Col)
			}
		}
		fc.add(base+off, diag.Error, RuleJSON, js.pos, "the JSON does not parse: %s", strings.TrimPrefix(msg, "invalid JSON: "))
		return
	}
	at := func(n *yaml.Node) int { return base + lc.offset(n.Line, n.Column) }
	if l := js.limit; l != nil && node.Kind == yaml.SequenceNode && !l.holds(len(node.Content)) {
		fc.add(at(node), diag.Error, RuleLimit, js.lpos, "the JSON has %d items; the format asks for %s (%s)", len(node.Content), l.want(), l.phrase)
	}
	if js.root == nil {
		return
	}
	k := &jsonCheck{d: js.decls, out: func(n *yaml.Node, sev diag.Severity, rule string, tpl diag.Pos, format string, args ...any) {
		fc.add(at(n), sev, rule, tpl, format, args...)
	}}
	root := js.root
	switch {
	case js.array:
		root = &typ{kind: tArray, elem: js.root, pos: js.root.pos}
	case js.either && node.Kind == yaml.SequenceNode && k.resolve(js.root) != nil && k.resolve(js.root).kind != tArray:
		root = &typ{kind: tArray, elem: js.root, pos: js.root.pos}
	}
	k.check(node, root, "JSON", 0)
}

// jsonSpan is where the JSON of a reply's block is: from the first line
// that starts a JSON value — [ or {, then what can follow it in JSON — (in a
// ``` fence or not) to where its brackets close. A line such as
// "[系统提示|…]" is text, not JSON. start is -1 when there is none.
func jsonSpan(text string) (int, int) {
	off := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(line)
		if t != "" && (t[0] == '[' || t[0] == '{') && jsonStart(t) {
			start := off + strings.IndexAny(line, "[{")
			return start, jsonEnd(text, start)
		}
		off += len(line)
	}
	return -1, -1
}

// jsonStart says whether t, which starts with [ or {, goes on as JSON does.
func jsonStart(t string) bool {
	rest := strings.TrimLeft(t[1:], " \t\r\n")
	if rest == "" {
		return true // the value goes on on the next line
	}
	c := rest[0]
	if t[0] == '{' {
		return c == '"' || c == '}'
	}
	return strings.IndexByte(`[{"-]0123456789tfn`, c) >= 0
}

// jsonEnd is where the brackets opened at start close, outside strings.
func jsonEnd(text string, start int) int {
	depth, inStr, esc := 0, false, false
	for i := start; i < len(text); i++ {
		c := text[i]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(text)
}

// lineCols turns 1-based lines and rune columns of a text into offsets,
// walking forward for positions asked for in order.
type lineCols struct {
	text       string
	line, col  int
	off        int
	started    bool
	lineStarts []int
}

func (l *lineCols) offset(line, col int) int {
	if l.lineStarts == nil {
		l.lineStarts = outformat.LineStarts(l.text)
	}
	if line < 1 || line > len(l.lineStarts) {
		return 0
	}
	if !l.started || line != l.line || col < l.col {
		l.line, l.col, l.off, l.started = line, 1, l.lineStarts[line-1], true
	}
	for l.col < col && l.off < len(l.text) && l.text[l.off] != '\n' {
		_, size := utf8.DecodeRuneInString(l.text[l.off:])
		l.off += size
		l.col++
	}
	return l.off
}
