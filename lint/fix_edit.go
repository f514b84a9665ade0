package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lorekit/lore/schema"
)

// Byte-level edits of a lore file for --fix: finding a value's bytes from its
// position, quoting, removing a flow-list item, applying the edits in order.

// offset is the byte offset of a position (1-based line, rune column).
func (f *fixer) offset(p schema.Pos) (int, error) {
	if p.Line < 1 || p.Line > len(f.lines) {
		return 0, fmt.Errorf("%s: no position to edit at %s", f.path, p)
	}
	off := f.lines[p.Line-1]
	for col := 1; col < p.Col && off < len(f.data) && f.data[off] != '\n'; col++ {
		_, n := utf8.DecodeRune(f.data[off:])
		off += n
	}
	return off, nil
}

// scalarEnd is where the scalar that starts at off ends: after its closing
// quote, or, for a plain scalar, before what ends it in flow or block context.
func (f *fixer) scalarEnd(off int, flow bool) (int, error) {
	d := f.data
	switch {
	case off >= len(d):
		return 0, fmt.Errorf("%s: a value runs past the end of the file", f.path)
	case d[off] == '"':
		for i := off + 1; i < len(d); i++ {
			switch d[i] {
			case '\\':
				i++
			case '"':
				return i + 1, nil
			}
		}
	case d[off] == '\'':
		for i := off + 1; i < len(d); i++ {
			if d[i] == '\'' {
				if i+1 < len(d) && d[i+1] == '\'' {
					i++
					continue
				}
				return i + 1, nil
			}
		}
	case d[off] == '|' || d[off] == '>':
		return 0, fmt.Errorf("%s:%d: a keyword written as a block scalar; fix it by hand", f.path, f.lineOf(off))
	default:
		i := off
		for i < len(d) && d[i] != '\n' && d[i] != '\r' {
			if flow && (d[i] == ',' || d[i] == ']' || d[i] == '}') {
				break
			}
			if d[i] == '#' && i > off && (d[i-1] == ' ' || d[i-1] == '\t') {
				break
			}
			i++
		}
		for i > off && (d[i-1] == ' ' || d[i-1] == '\t') {
			i--
		}
		return i, nil
	}
	return 0, fmt.Errorf("%s:%d: a quoted value is never closed", f.path, f.lineOf(off))
}

func (f *fixer) lineOf(off int) int { return sort.SearchInts(f.lines, off+1) }

// before is the last character before off that is not white space (a JSON
// array or a flow list may put each item on a line of its own).
func (f *fixer) before(off int) (byte, int) {
	for i := off - 1; i >= 0; i-- {
		if c := f.data[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, i
		}
	}
	return 0, -1
}

// quote writes s as a value of this file: a JSON string, or plain YAML when
// that reads back as the same string (in a flow list or not), else a
// double-quoted one.
func (f *fixer) quote(s string, flow bool) string {
	if !f.json() && plainYAML(s, flow) {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func plainYAML(s string, flow bool) bool {
	if !plainRe.MatchString(s) || yamlSpecial.MatchString(s) || strings.HasSuffix(s, " ") {
		return false
	}
	return !flow || !strings.ContainsAny(s, "()")
}

// inFlow reports a position inside { } or [ ] on its line (a flow mapping
// such as {id: a, keywords: x}).
func (f *fixer) inFlow(off int) bool {
	ls := f.lines[f.lineOf(off)-1]
	depth := 0
	for _, c := range f.data[ls:off] {
		switch c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	return depth > 0
}

// removeFlowItem removes an item of a flow list with the comma that goes
// with it: the one after it, or, for the last item, the one before.
func (f *fixer) removeFlowItem(prev byte, prevAt, start, end int) error {
	i := end
	for i < len(f.data) && (f.data[i] == ' ' || f.data[i] == '\t') {
		i++
	}
	if i < len(f.data) && f.data[i] == ',' {
		j := i + 1
		for j < len(f.data) && (f.data[j] == ' ' || f.data[j] == '\t') {
			j++
		}
		f.edits = append(f.edits, edit{start, j, ""})
		return nil
	}
	if prev == ',' {
		f.edits = append(f.edits, edit{prevAt, end, ""})
		return nil
	}
	f.edits = append(f.edits, edit{start, end, ""}) // the only item: [] remains
	return nil
}

// applyEdits applies non-overlapping edits to data.
func applyEdits(data []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last {
			continue // overlapping: cannot happen, each value is edited once
		}
		b.Write(data[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(data[last:])
	return b.Bytes()
}
