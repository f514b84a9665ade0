package lint

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/schema"
)

// checkFormatTemplate checks the output-format blocks of SPEC §5 inside entry
// content. A block starts at a line `---` and ends at a line `...`, at the next
// `---`, or at the end of the content. A block that is not a YAML mapping is not
// a template (creators also use `---` as a plain separator) and is left alone;
// a block that does not parse is reported only when it has a `format:` or `rule:`
// key, for the same reason. In every mapping with a `format` key the check wants a
// `rule` (or `condition`) beside it, balanced `${ }` and `$( )`, balanced
// <tag>…</tag> pairs outside them, no `...` line with nothing before it, and —
// when format is a map of nested parts — no `${part}` references in a cycle.
func checkFormatTemplate(c *Context) {
	for _, e := range c.Book.Entries {
		if !e.Enabled || !strings.Contains(e.Content, "---") {
			continue
		}
		ft := &formatCheck{c: c, e: e, lines: lineStarts(e.Content)}
		for _, b := range formatBlocks(e.Content) {
			ft.block(b)
		}
	}
}

// fblock is a block's byte range in the content.
type fblock struct{ start, end int }

func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func formatBlocks(content string) []fblock {
	var out []fblock
	open := -1
	off := 0
	for _, raw := range strings.SplitAfter(content, "\n") {
		lineOff := off
		off += len(raw)
		line := strings.TrimRight(raw, " \t\r\n")
		switch line {
		case "---":
			if open >= 0 {
				out = append(out, fblock{open, lineOff})
			}
			open = off
		case "...":
			if open >= 0 {
				out = append(out, fblock{open, lineOff})
				open = -1
			}
		}
	}
	if open >= 0 && open < len(content) {
		out = append(out, fblock{open, len(content)})
	}
	return out
}

type formatCheck struct {
	c     *Context
	e     *schema.Entry
	lines []int // line start offsets of the content
	base  int   // offset of the block being checked
	// valueLines are the line starts of the scalar valueOf, made once per
	// scalar: finding each warning's line by counting from the start made
	// thousands of warnings in one value quadratic.
	valueOf    *yaml.Node
	valueLines []int
}

var (
	templateKeyRe = regexp.MustCompile(`(?m)^\s*(format|rule)\s*:`)
)

func (f *formatCheck) report(off int, format string, args ...any) {
	f.c.Report(f.e, f.e.PosInContent(off), format, args...)
}

func (f *formatCheck) block(b fblock) {
	text := f.e.Content[b.start:b.end]
	if strings.TrimSpace(text) == "" {
		return
	}
	f.base = b.start
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		if !templateKeyRe.MatchString(text) {
			return
		}
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		off := b.start
		if line, _, problem, ok := schema.YAMLErrorLine([]byte(text), err); ok {
			off = f.lineOffset(line, 1)
			msg = problem
		}
		f.report(off, "output-format block is not valid YAML: %s; fix the indentation or quote the value", msg)
		return
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	f.walk(doc.Content[0], 0)
}

// lineOffset is the content offset of a 1-based line and column (in runes) of the
// block being checked.
func (f *formatCheck) lineOffset(line, col int) int {
	// The block starts at a line start (just after its `---` line).
	i := sort.SearchInts(f.lines, f.base) + line - 1
	if i < 0 || i >= len(f.lines) {
		return f.base
	}
	start := f.lines[i]
	end := len(f.e.Content)
	if i+1 < len(f.lines) {
		end = f.lines[i+1]
	}
	lineText := f.e.Content[start:end]
	off := 0
	for n := 1; n < col && off < len(lineText); n++ {
		_, size := utf8.DecodeRuneInString(lineText[off:])
		off += size
	}
	return start + off
}

// walk finds every mapping with a `format` key, at any depth.
func (f *formatCheck) walk(n *yaml.Node, depth int) {
	if depth > 64 {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		var format *yaml.Node
		var formatKey *yaml.Node
		hasRule := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch n.Content[i].Value {
			case "format":
				formatKey, format = n.Content[i], n.Content[i+1]
			case "rule", "condition":
				hasRule = true
			}
		}
		if format != nil {
			if !hasRule {
				f.report(f.lineOffset(formatKey.Line, formatKey.Column),
					"format without a rule: add `rule:` beside it saying when the model must write this format")
			}
			f.format(format)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i+1] != format {
				f.walk(n.Content[i+1], depth+1)
			}
		}
	case yaml.SequenceNode:
		for _, x := range n.Content {
			f.walk(x, depth+1)
		}
	}
}

// format checks a format value: a text, or a map of named parts that may include
// each other with ${name}.
func (f *formatCheck) format(n *yaml.Node) {
	switch n.Kind {
	case yaml.ScalarNode:
		f.text(n)
	case yaml.SequenceNode:
		for _, x := range n.Content {
			f.format(x)
		}
	case yaml.MappingNode:
		parts := map[string]*yaml.Node{}
		var order []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if _, dup := parts[k]; !dup {
				order = append(order, k)
			}
			parts[k] = n.Content[i]
		}
		refs := map[string][]string{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			forScalars(n.Content[i+1], 0, func(s *yaml.Node) {
				f.text(s)
				for _, name := range placeholders(s.Value) {
					if _, ok := parts[name]; ok {
						refs[k] = append(refs[k], name)
					}
				}
			})
		}
		if cyc := refCycle(order, refs); cyc != nil {
			k := parts[cyc[0]]
			f.report(f.lineOffset(k.Line, k.Column),
				"reference cycle in format: %s; a part cannot include itself, directly or through others", strings.Join(cyc, " → "))
		}
	}
}

func forScalars(n *yaml.Node, depth int, fn func(*yaml.Node)) {
	if depth > 64 {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		fn(n)
	case yaml.SequenceNode, yaml.MappingNode:
		for i, x := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				continue // keys are names, not template text
			}
			forScalars(x, depth+1, fn)
		}
	}
}

// placeholders lists the trimmed texts of the ${…} in s (outermost only).
func placeholders(s string) []string {
	var out []string
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '$' || s[i+1] != '{' {
			continue
		}
		depth := 0
		for j := i + 1; j < len(s); j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				depth--
				if depth == 0 {
					out = append(out, strings.TrimSpace(s[i+2:j]))
					i = j
					break
				}
			}
		}
	}
	return out
}

// refCycle finds a cycle among the parts (depth-first, parts in written order) and
// returns it closed: [a b a].
func refCycle(order []string, refs map[string][]string) []string {
	const (
		unseen = iota
		active
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(k string) []string
	visit = func(k string) []string {
		state[k] = active
		path = append(path, k)
		for _, r := range refs[k] {
			switch state[r] {
			case active:
				for i, p := range path {
					if p == r {
						return append(append([]string(nil), path[i:]...), r)
					}
				}
			case unseen:
				if c := visit(r); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[k] = done
		return nil
	}
	for _, k := range order {
		if state[k] == unseen {
			if c := visit(k); c != nil {
				return c
			}
		}
	}
	return nil
}

// placeholderTags are single-word tags creators write as names, not as open/close
// pairs (<user> stands for the player), and the examples separator.
var placeholderTags = map[string]bool{"user": true, "char": true, "bot": true, "start": true}

var tagRe = regexp.MustCompile(`<(/?)([\p{L}_][\p{L}\p{N}_.:-]*)(?:\s[^<>]*)?(/?)>`)

// text checks one template text: ${ } and $( ) balance, <tag> pairs outside them,
// and a leading `...`.
func (f *formatCheck) text(n *yaml.Node) {
	s := n.Value
	type opener struct {
		close  byte
		at     int
		marker bool // ${ or $(, not a plain bracket inside one
	}
	var stack []opener
	var outside strings.Builder // s with ${…} and $(…) blanked out, for the tag check
	for i := 0; i < len(s); i++ {
		ch := s[i]
		inside := len(stack) > 0
		switch {
		case ch == '$' && i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '('):
			cl := byte('}')
			if s[i+1] == '(' {
				cl = ')'
			}
			stack = append(stack, opener{close: cl, at: i, marker: true})
			outside.WriteString("  ")
			i++
			continue
		case inside && (ch == '{' || ch == '('):
			cl := byte('}')
			if ch == '(' {
				cl = ')'
			}
			if cl == stack[len(stack)-1].close {
				stack = append(stack, opener{close: cl, at: i})
			}
		case inside && ch == stack[len(stack)-1].close:
			stack = stack[:len(stack)-1]
			outside.WriteByte(' ')
			continue
		}
		if len(stack) > 0 {
			outside.WriteByte(' ')
		} else {
			outside.WriteByte(ch)
		}
	}
	for _, o := range stack {
		if o.marker {
			open := s[o.at : o.at+2]
			f.report(f.valueOffset(n, o.at), "%s opened here is never closed: add %q (the model would print the rest of the format as part of it)",
				open, string(o.close))
			break
		}
	}

	type tag struct {
		name string
		at   int
	}
	var open []tag
	plain := outside.String()
	for _, m := range tagRe.FindAllStringSubmatchIndex(plain, -1) {
		closing := m[3] > m[2]
		selfClosing := m[7] > m[6]
		name := plain[m[4]:m[5]]
		if selfClosing || placeholderTags[strings.ToLower(name)] {
			continue
		}
		if !closing {
			open = append(open, tag{name, m[0]})
			continue
		}
		j := len(open) - 1
		for j >= 0 && open[j].name != name {
			j--
		}
		if j < 0 {
			f.report(f.valueOffset(n, m[0]), "</%s> closes a tag that was never opened in this format; add <%s> before it or remove it", name, name)
			continue
		}
		for _, t := range open[j+1:] {
			f.report(f.valueOffset(n, t.at), "<%s> is never closed in this format: add </%s> before </%s>", t.name, t.name, name)
		}
		open = open[:j]
	}
	for _, t := range open {
		f.report(f.valueOffset(n, t.at), "<%s> is never closed in this format: add </%s>", t.name, t.name)
	}

	off := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		lineOff := off
		off += len(line)
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "...") && !strings.HasPrefix(t, "....") {
			f.report(f.valueOffset(n, lineOff+strings.Index(line, "...")),
				"`...` asks the model to continue the pattern before it, but nothing comes before it in this format; write the pattern first")
		}
		break
	}
}

// valueOffset maps a byte offset inside a scalar's decoded value to the content.
// Literal and folded block scalars keep one source line per value line, indented;
// quoted and plain scalars start at the node's column (after the quote).
func (f *formatCheck) valueOffset(n *yaml.Node, at int) int {
	if f.valueOf != n {
		f.valueOf, f.valueLines = n, lineStarts(n.Value)
	}
	line := sort.SearchInts(f.valueLines, at+1) - 1
	col := at - f.valueLines[line]
	switch n.Style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		start := f.lineOffset(n.Line+1+line, 1)
		rest := f.e.Content[start:]
		indent := len(rest) - len(strings.TrimLeft(rest, " "))
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 && indent > nl {
			indent = nl
		}
		return min(start+indent+col, len(f.e.Content))
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		if line == 0 {
			return min(f.lineOffset(n.Line, n.Column)+1+col, len(f.e.Content))
		}
	default:
		if line == 0 {
			return min(f.lineOffset(n.Line, n.Column)+col, len(f.e.Content))
		}
	}
	return f.lineOffset(n.Line, n.Column)
}
