package reply

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/outformat"
)

// A template text is read in three steps: its pieces (literal text, ${…},
// $(…), `...`), its lines of pieces, and the elements a reply is matched
// against (a line, a choice between a part's alternatives, a group and its
// repetitions).

type pkind uint8

const (
	pLit   pkind = iota
	pFill        // ${description}, or `...` inside a line: text the model writes
	pInstr       // $(instruction): obeyed, never printed
	pRef         // ${part}: one of the format's parts
	pField       // ${field}: a field of the items of a list part
	pElems       // elements built already (the choice between a list's items)
)

type piece struct {
	kind  pkind
	text  string     // the literal text, description, instruction, part or field name
	node  *yaml.Node // the scalar the text is in
	at    int        // where text starts in node.Value
	dots  bool       // a fill written `...`
	elems []elem     // pElems
}

// elem is one thing a reply's block must have: a line, a choice, or a
// repeated group.
type elem struct {
	pat    *linePat
	choice *choice
	rep    *repeat
}

// choice is a ${part} whose part has alternatives (a map of texts, a list of
// texts, or the items of a list whose fields the line names): the reply has
// one of them.
type choice struct {
	part  string
	names []string // each alternative's name, for messages
	opts  [][]elem
	pos   diag.Pos // the ${part} (or the first ${field})
}

// repeat is the group before a `...` line, written once and then repeated
// any number of times (the `...`), each repetition matching the group.
type repeat struct {
	id    int
	body  []elem
	count *limit // how many times the group may be written, when the `...` line says
	pos   diag.Pos
	cpos  diag.Pos // where the count is stated
}

// linePat is one line of a template, compiled.
type linePat struct {
	id   int
	segs []seg
	pos  diag.Pos // its first character
	show string   // the line as the template writes it, shortened, for messages
	// tag is set when the line is nothing but one tag ("<character>").
	tag     string
	closing bool
	// choice and opt: the alternative of a choice the line belongs to.
	choice *choice
	opt    int
}

// seg is a literal (lit != "") or a fill of a line; fills and literals
// alternate.
type seg struct {
	lit  string // folded (see fold)
	raw  string // as written
	fill *fill
	pos  diag.Pos
}

type fill struct {
	desc  string
	ndesc string   // desc folded
	pos   diag.Pos // the ${
	limit *limit
	lpos  diag.Pos // where the limit is stated
	dots  bool     // `...`: continue the pattern
	// merged: two fills with nothing printed between them, whose texts the
	// reply does not tell apart; they are checked as one text, without limits.
	merged   bool
	optional bool
}

// instr is a $(…) instruction, which a reply must not print.
type instr struct {
	text string
	n    string // folded
	pos  diag.Pos
}

// Bounds on what one format may expand to, against hostile templates.
const (
	maxPatterns = 2000
	maxDepth    = 8
	maxCombos   = 32
	// maxWork bounds the lines and pieces read while a format expands
	// (parts written into parts can multiply them).
	maxWork = 50000
)

// spend counts n units of work, and says whether the format is over its
// bounds.
func (c *compiler) spend(n int) bool {
	c.work += n
	if c.work > maxWork {
		c.overflow = true
	}
	return c.overflow
}

// elems compiles lines into elements.
func (c *compiler) elems(ls [][]piece, depth int) []elem {
	var out []elem
	for _, ln := range ls {
		if c.spend(len(ln) + 1) {
			return out
		}
		cp := content(ln)
		switch {
		case len(cp) == 0:
			continue // a blank line, or instructions alone
		case len(cp) == 1 && cp[0].kind == pElems:
			out = append(out, cp[0].elems...)
		case len(cp) == 1 && cp[0].kind == pFill && cp[0].dots:
			// `...` alone: repeat the group before it.
			if len(out) == 0 {
				continue // nothing to repeat (format-template warns of it)
			}
			g := groupStart(out)
			r := &repeat{id: c.repeats, body: append([]elem(nil), out[g:]...), pos: c.pos(cp[0].node, cp[0].at)}
			c.repeats++
			for _, p := range ln {
				if p.kind != pInstr {
					continue
				}
				if l := parseLimit(p.text, inRepeat, ""); l != nil && r.count == nil {
					r.count, r.cpos = l, c.pos(p.node, p.at+l.at)
				}
			}
			out = append(out[:g], elem{rep: r})
		case len(cp) == 1 && cp[0].kind == pRef:
			out = append(out, c.part(cp[0], depth)...)
		default:
			out = append(out, c.line(ln, depth)...)
		}
	}
	return out
}

// groupStart is where the group a `...` repeats begins: the line before it,
// or, when that line closes a tag, the line that opens it.
func groupStart(out []elem) int {
	last := len(out) - 1
	p := out[last].pat
	if p == nil || p.tag == "" || !p.closing {
		return last
	}
	depth := 0
	for i := last; i >= 0; i-- {
		q := out[i].pat
		if q == nil || q.tag != p.tag {
			continue
		}
		if q.closing {
			depth++
		} else if depth--; depth == 0 {
			return i
		}
	}
	return last
}

// option is one alternative of a part.
type option struct {
	name  string
	lines [][]piece
}

// options are a part's alternatives: its text, each text of a map or a
// list. A part that is none of these (a list of mappings named as a whole)
// has none the checker can read.
func (c *compiler) options(name string) ([]option, bool) {
	n := c.parts[name]
	if n == nil {
		return nil, false
	}
	var out []option
	switch n.Kind {
	case yaml.ScalarNode:
		out = append(out, option{name: name, lines: lines(c.pieces(n))})
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			v := n.Content[i+1]
			if v.Kind != yaml.ScalarNode {
				return nil, false
			}
			out = append(out, option{name: n.Content[i].Value, lines: lines(c.pieces(v))})
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			if v.Kind != yaml.ScalarNode {
				return nil, false
			}
			out = append(out, option{name: itemName(i, v.Value), lines: lines(c.pieces(v))})
		}
	default:
		return nil, false
	}
	return out, len(out) > 0
}

func itemName(i int, s string) string {
	if s = firstLine(s); s != "" {
		return shorten(s, 16)
	}
	return "item " + itoa(i+1)
}

// part compiles a line that is one ${part}: the part's text, or a choice
// of its alternatives.
func (c *compiler) part(ref piece, depth int) []elem {
	opts, ok := c.options(ref.text)
	if !ok || depth >= maxDepth || c.expanding(ref.text) {
		return c.line([]piece{{kind: pFill, text: ref.text, node: ref.node, at: ref.at}}, depth)
	}
	c.stack = append(c.stack, ref.text)
	defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	if len(opts) == 1 {
		return c.elems(opts[0].lines, depth+1)
	}
	ch := &choice{part: ref.text, pos: c.pos(ref.node, ref.at-2)}
	for _, o := range opts {
		ch.names = append(ch.names, o.name)
		ch.opts = append(ch.opts, c.elems(o.lines, depth+1))
	}
	c.mark(ch)
	return []elem{{choice: ch}}
}

func (c *compiler) expanding(name string) bool {
	for _, s := range c.stack {
		if s == name {
			return true
		}
	}
	return false
}

// mark records on every line of a choice which alternative it is of.
func (c *compiler) mark(ch *choice) {
	for i, es := range ch.opts {
		walkPats(es, func(p *linePat) {
			if p.choice == nil {
				p.choice, p.opt = ch, i
			}
		})
	}
}

func walkPats(es []elem, fn func(*linePat)) {
	for _, e := range es {
		switch {
		case e.pat != nil:
			fn(e.pat)
		case e.choice != nil:
			for _, o := range e.choice.opts {
				walkPats(o, fn)
			}
		case e.rep != nil:
			walkPats(e.rep.body, fn)
		}
	}
}

// line compiles one line. A ${part} inside it whose alternatives are
// one-line texts makes the line a choice of each alternative written in; a
// part that cannot be written in (a text of several lines) is a fill.
func (c *compiler) line(ln []piece, depth int) []elem {
	combos := [][]piece{nil}
	var ch *choice
	for _, p := range ln {
		alts := [][]piece{{p}}
		var names []string
		switch p.kind {
		case pRef:
			alts, names = c.inline(p, depth)
		case pField:
			alts = [][]piece{{{kind: pFill, text: p.text, node: p.node, at: p.at}}}
		}
		if len(alts) > 1 {
			if ch == nil && len(combos)*len(alts) <= maxCombos {
				ch = &choice{part: p.text, names: names, pos: c.pos(p.node, p.at-2)}
			} else {
				alts = [][]piece{{{kind: pFill, text: p.text, node: p.node, at: p.at}}}
			}
		}
		next := make([][]piece, 0, len(combos)*len(alts))
		for _, cmb := range combos {
			for _, a := range alts {
				next = append(next, append(append([]piece(nil), cmb...), a...))
			}
		}
		combos = next
	}
	if len(combos) == 1 {
		if p := c.pattern(combos[0]); p != nil {
			return []elem{{pat: p}}
		}
		return nil
	}
	for i, cmb := range combos {
		var es []elem
		if p := c.pattern(cmb); p != nil {
			es = append(es, elem{pat: p})
		}
		ch.opts = append(ch.opts, es)
		if len(ch.names) < len(combos) {
			ch.names = append(ch.names, "alternative "+itoa(i+1))
		}
	}
	c.mark(ch)
	return []elem{{choice: ch}}
}

// inline is what a ${part} inside a line can be: its one-line alternatives,
// each as pieces (references inside them written in too), with their names.
func (c *compiler) inline(ref piece, depth int) ([][]piece, []string) {
	fillIn := [][]piece{{{kind: pFill, text: ref.text, node: ref.node, at: ref.at}}}
	opts, ok := c.options(ref.text)
	if !ok || depth >= maxDepth || c.expanding(ref.text) {
		return fillIn, nil
	}
	c.stack = append(c.stack, ref.text)
	defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	var out [][]piece
	var names []string
	for _, o := range opts {
		var nonBlank [][]piece
		for _, l := range o.lines {
			if len(content(l)) > 0 {
				nonBlank = append(nonBlank, l)
			}
		}
		if len(nonBlank) != 1 {
			return fillIn, nil
		}
		var ps []piece
		for _, p := range nonBlank[0] {
			if p.kind == pRef {
				sub, _ := c.inline(p, depth+1)
				if len(sub) != 1 {
					return fillIn, nil
				}
				ps = append(ps, sub[0]...)
				continue
			}
			ps = append(ps, p)
		}
		out = append(out, ps)
		names = append(names, o.name)
	}
	return out, names
}

// pattern compiles the pieces of one line; nil when the line prints nothing.
func (c *compiler) pattern(ps []piece) *linePat {
	if c.patterns >= maxPatterns {
		c.overflow = true
		return nil
	}
	p := &linePat{id: c.patterns}
	var show strings.Builder
	var lit, raw strings.Builder
	var litPos diag.Pos
	flush := func() {
		if lit.Len() > 0 {
			p.segs = append(p.segs, seg{lit: lit.String(), raw: strings.TrimSpace(raw.String()), pos: litPos})
		}
		lit.Reset()
		raw.Reset()
	}
	for _, pc := range ps {
		switch pc.kind {
		case pLit:
			show.WriteString(pc.text)
			raw.WriteString(pc.text)
			for i, r := range pc.text {
				if f, ok := fold(r); ok {
					if lit.Len() == 0 {
						litPos = c.pos(pc.node, pc.at+i)
					}
					lit.WriteRune(f)
				}
			}
		case pInstr:
		case pFill, pField, pRef:
			if pc.dots {
				show.WriteString("...")
			} else {
				show.WriteString("${" + shorten(pc.text, 12) + "}")
			}
			flush()
			f := &fill{desc: pc.text, ndesc: norm(pc.text), pos: c.pos(pc.node, max(0, pc.at-2)), dots: pc.dots, optional: optionalRe().MatchString(pc.text)}
			if pc.dots {
				f.pos = c.pos(pc.node, pc.at)
			} else if l := parseLimit(pc.text, inFill, ""); l != nil {
				f.limit, f.lpos = l, c.pos(pc.node, pc.at+l.at)
			}
			if n := len(p.segs); n > 0 && p.segs[n-1].fill != nil {
				prev := p.segs[n-1].fill
				prev.merged, prev.limit = true, nil
				prev.optional = prev.optional && f.optional
				continue
			}
			p.segs = append(p.segs, seg{fill: f, pos: f.pos})
		}
	}
	flush()
	if len(p.segs) == 0 {
		return nil
	}
	p.pos = p.segs[0].pos
	p.show = shorten(strings.TrimSpace(show.String()), 40)
	if len(p.segs) == 1 && p.segs[0].fill == nil {
		if ts := outformat.Tags(p.segs[0].raw); len(ts) == 1 && ts[0].At == 0 && ts[0].End == len(p.segs[0].raw) {
			p.tag, p.closing = ts[0].Name, ts[0].Closing
		}
	}
	c.patterns++
	c.f.pats = append(c.f.pats, p)
	return p
}

// instr records an instruction of the format, once per text.
func (c *compiler) instr(p piece) {
	n := norm(p.text)
	for _, x := range c.f.instrs {
		if x.n == n {
			return
		}
	}
	c.f.instrs = append(c.f.instrs, &instr{text: p.text, n: n, pos: c.pos(p.node, max(0, p.at-2))})
}
