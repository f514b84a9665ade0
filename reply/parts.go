package reply

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/outformat"
)

// How a format map's parts come together: its main part, the list whose
// items' fields the main part names, and the tag around the whole text.

// mainPart is the part a format map starts from: `basic`, else the first
// part no other part names.
func (c *compiler) mainPart(order []string) *yaml.Node {
	if n := c.parts["basic"]; n != nil {
		return n
	}
	named := map[string]bool{}
	for _, k := range order {
		outformat.Scalars(c.parts[k], func(s *yaml.Node) {
			for _, p := range outformat.Placeholders(s.Value) {
				if p != k {
					named[p] = true
				}
			}
		})
	}
	for _, k := range order {
		if !named[k] {
			return c.parts[k]
		}
	}
	return nil
}

// itemList finds the list part whose items' fields the main part names
// (${title}, ${content} of a list of {title, content}), and records those
// field names.
func (c *compiler) itemList(main *yaml.Node) *yaml.Node {
	named := map[string]bool{}
	for _, n := range c.parts {
		outformat.Scalars(n, func(s *yaml.Node) {
			for _, p := range outformat.Placeholders(s.Value) {
				named[p] = true
			}
		})
	}
	inMain := outformat.Placeholders(main.Value)
	var keys []string
	for k := range c.parts {
		keys = append(keys, k)
	}
	// Parts in written order: the format map's own order.
	for _, k := range sortedParts(c.parts, keys) {
		n := c.parts[k]
		if n.Kind != yaml.SequenceNode || named[k] {
			continue
		}
		fields := map[string]bool{}
		for _, it := range n.Content {
			if it.Kind != yaml.MappingNode {
				continue
			}
			for j := 0; j+1 < len(it.Content); j += 2 {
				fields[it.Content[j].Value] = true
			}
		}
		used := map[string]bool{}
		for _, p := range inMain {
			if fields[p] && c.parts[p] == nil {
				used[p] = true
			}
		}
		if len(used) > 0 {
			c.fields = used
			return n
		}
	}
	return nil
}

// sortedParts orders part names by where their values are written.
func sortedParts(parts map[string]*yaml.Node, keys []string) []string {
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0; j-- {
			a, b := parts[keys[j-1]], parts[keys[j]]
			if a.Line < b.Line || (a.Line == b.Line && a.Column <= b.Column) {
				break
			}
			keys[j-1], keys[j] = keys[j], keys[j-1]
		}
	}
	return keys
}

// unwrap takes the tag the whole text is wrapped in off its first and last
// lines: <status_block> … </status_block>.
func (c *compiler) unwrap(ls [][]piece) [][]piece {
	first, last := -1, -1
	for i, l := range ls {
		if len(content(l)) > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return ls
	}
	fp, lp := content(ls[first])[0], content(ls[last])
	lastP := lp[len(lp)-1]
	if fp.kind != pLit || lastP.kind != pLit {
		return ls
	}
	open := strings.TrimLeft(fp.text, " \t")
	ts := outformat.Tags(open)
	if len(ts) == 0 || ts[0].At != 0 || ts[0].Closing {
		return ls
	}
	name := ts[0].Name
	closeTag := "</" + name + ">"
	if !strings.HasSuffix(strings.TrimRight(lastP.text, " \t\r"), closeTag) {
		return ls
	}
	// The tag must wrap the whole text: no other tag of its name in it.
	count := 0
	for _, l := range ls {
		for _, p := range l {
			if p.kind == pLit {
				for _, t := range outformat.Tags(p.text) {
					if t.Name == name {
						count++
					}
				}
			}
		}
	}
	if count != 2 {
		return ls
	}
	lead := len(fp.text) - len(open)
	c.f.tag, c.f.tagPos = name, c.pos(fp.node, fp.at+lead)
	out := make([][]piece, len(ls))
	copy(out, ls)
	cut := func(line []piece, p piece, text string, at int) []piece {
		nl := append([]piece(nil), line...)
		for i := range nl {
			if nl[i].node == p.node && nl[i].at == p.at && nl[i].kind == pLit {
				nl[i].text, nl[i].at = text, at
			}
		}
		return nl
	}
	out[first] = cut(out[first], fp, open[ts[0].End:], fp.at+lead+ts[0].End)
	if last == first {
		fp2 := content(out[last])
		lastP = fp2[len(fp2)-1]
	}
	trimmed := strings.TrimRight(lastP.text, " \t\r")
	out[last] = cut(out[last], lastP, trimmed[:len(trimmed)-len(closeTag)], lastP.at)
	return out
}

// items makes the lines that name the fields of a list part's items one
// choice: each item written into them, and for an item `...` (more kinds)
// the fields as free text.
func (c *compiler) items(ls [][]piece, list *yaml.Node) [][]piece {
	a, b := -1, -1
	for i, l := range ls {
		for _, p := range l {
			if p.kind == pField {
				if a < 0 {
					a = i
				}
				b = i
			}
		}
	}
	if a < 0 {
		return ls
	}
	span := ls[a : b+1]
	var first piece
	for _, p := range span[0] {
		if p.kind == pField {
			first = p
			break
		}
	}
	ch := &choice{part: "items", pos: c.pos(first.node, max(0, first.at-2))}
	for i, it := range list.Content {
		var bound map[string]*yaml.Node
		name := ""
		switch {
		case it.Kind == yaml.MappingNode:
			bound = map[string]*yaml.Node{}
			for j := 0; j+1 < len(it.Content); j += 2 {
				bound[it.Content[j].Value] = it.Content[j+1]
			}
			if t := bound["title"]; t != nil && t.Kind == yaml.ScalarNode {
				name = shorten(firstLine(t.Value), 20)
			}
		case it.Kind == yaml.ScalarNode && strings.TrimSpace(it.Value) == "...":
			name = "any other item (…)"
		default:
			continue
		}
		if name == "" {
			name = "item " + itoa(i+1)
		}
		ch.names = append(ch.names, name)
		ch.opts = append(ch.opts, c.elems(c.bind(span, bound), 1))
	}
	if len(ch.opts) == 0 {
		return ls
	}
	c.mark(ch)
	out := append([][]piece(nil), ls[:a]...)
	out = append(out, []piece{{kind: pElems, elems: []elem{{choice: ch}}}})
	return append(out, ls[b+1:]...)
}

// bind writes an item's fields into lines; a field the item lacks, or
// holds as something other than a text, is free text.
func (c *compiler) bind(span [][]piece, item map[string]*yaml.Node) [][]piece {
	var out [][]piece
	for _, l := range span {
		var cur []piece
		var extra [][]piece
		for _, p := range l {
			if p.kind != pField {
				cur = append(cur, p)
				continue
			}
			v := item[p.text]
			if v == nil || v.Kind != yaml.ScalarNode {
				cur = append(cur, piece{kind: pFill, text: p.text, node: p.node, at: p.at})
				continue
			}
			vl := lines(c.pieces(v))
			switch {
			case len(vl) == 1:
				cur = append(cur, vl[0]...)
			case len(content(l)) == 1:
				extra = vl
			default:
				cur = append(cur, piece{kind: pFill, text: p.text, node: p.node, at: p.at})
			}
		}
		if extra != nil {
			out = append(out, extra...)
			continue
		}
		out = append(out, cur)
	}
	return out
}
