package lint

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/outformat"
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
// Reading the templates is package outformat's, which the reply checker shares.
func checkFormatTemplate(c *Context) {
	for _, e := range c.Book.Entries {
		if !e.Enabled || !strings.Contains(e.Content, "---") {
			continue
		}
		ft := &formatCheck{c: c, e: e, src: outformat.NewSource(e.Content)}
		for _, b := range ft.src.Blocks() {
			ft.block(b)
		}
	}
}

func lineStarts(s string) []int { return outformat.LineStarts(s) }

type formatCheck struct {
	c   *Context
	e   *schema.Entry
	src *outformat.Source
	b   outformat.Block // the block being checked
}

func (f *formatCheck) report(off int, format string, args ...any) {
	f.c.Report(f.e, f.e.PosInContent(off), format, args...)
}

func (f *formatCheck) block(b outformat.Block) {
	f.b = b
	root, serr := f.src.Parse(b)
	if serr != nil {
		f.report(serr.Offset, "output-format block is not valid YAML: %s; fix the indentation or quote the value", serr.Msg)
		return
	}
	if root == nil {
		return
	}
	outformat.Walk(root, func(s *outformat.Site) {
		if !s.HasRule() {
			f.report(f.src.LineOffset(b, s.FormatKey.Line, s.FormatKey.Column),
				"format without a rule: add `rule:` beside it saying when the model must write this format")
		}
		f.format(s.Format)
	})
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
			outformat.Scalars(n.Content[i+1], func(s *yaml.Node) {
				f.text(s)
				for _, name := range outformat.Placeholders(s.Value) {
					if _, ok := parts[name]; ok {
						refs[k] = append(refs[k], name)
					}
				}
			})
		}
		if cyc := outformat.RefCycle(order, refs); cyc != nil {
			k := parts[cyc[0]]
			f.report(f.src.LineOffset(f.b, k.Line, k.Column),
				"reference cycle in format: %s; a part cannot include itself, directly or through others", strings.Join(cyc, " → "))
		}
	}
}

// text checks one template text: ${ } and $( ) balance, <tag> pairs outside them,
// and a leading `...`.
func (f *formatCheck) text(n *yaml.Node) {
	s := n.Value
	t := outformat.ScanText(s)
	if o := t.Unclosed; o != nil {
		f.report(f.valueOffset(n, o.At), "%s opened here is never closed: add %q (the model would print the rest of the format as part of it)",
			o.Open, string(o.Close))
	}

	for _, p := range outformat.PairTags(outformat.Tags(t.Outside)) {
		switch {
		case p.Unopened:
			f.report(f.valueOffset(n, p.Tag.At), "</%s> closes a tag that was never opened in this format; add <%s> before it or remove it", p.Tag.Name, p.Tag.Name)
		case p.Before != nil:
			f.report(f.valueOffset(n, p.Tag.At), "<%s> is never closed in this format: add </%s> before </%s>", p.Tag.Name, p.Tag.Name, p.Before.Name)
		default:
			f.report(f.valueOffset(n, p.Tag.At), "<%s> is never closed in this format: add </%s>", p.Tag.Name, p.Tag.Name)
		}
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
func (f *formatCheck) valueOffset(n *yaml.Node, at int) int {
	return f.src.ValueOffset(f.b, n, at)
}
