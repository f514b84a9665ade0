package reply

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/outformat"
)

// jsonSpec is a format whose text is one ${…} asking for JSON of its `type:`.
type jsonSpec struct {
	desc  string
	pos   diag.Pos // the ${
	limit *limit   // how many items the array may have
	lpos  diag.Pos
	decls *decls
	root  *typ // nil: the JSON is only checked to parse
	// array: the description asks for an array of root (Chat[]); either:
	// it names no type, so the JSON may be root or an array of it.
	array, either bool
	tpos          diag.Pos // the type: block
}

// json makes the format a JSON format when it has a `type:` and its text is
// one ${…} (inside its tag and ``` fences). It reports whether it did.
func (c *compiler) json(s *outformat.Site, ls [][]piece) bool {
	if s.Type == nil {
		return false
	}
	var fillLine []piece
	for _, l := range ls {
		cp := content(l)
		switch {
		case len(cp) == 0:
		case len(cp) == 1 && cp[0].kind == pLit && fenceRe.MatchString(strings.TrimSpace(cp[0].text)):
			c.f.fences = true
		case fillLine == nil && len(cp) == 1 && cp[0].kind == pFill && !cp[0].dots:
			fillLine = cp
		default:
			return false
		}
	}
	if fillLine == nil {
		return false
	}
	fp := fillLine[0]
	js := &jsonSpec{desc: fp.text, pos: c.pos(fp.node, max(0, fp.at-2))}
	c.f.json = js
	if s.Type.Kind != yaml.ScalarNode {
		return true
	}
	typeNode := s.Type
	js.tpos = c.pos(typeNode, 0)
	d, err := parseTypes(typeNode.Value, func(at int) diag.Pos { return c.pos(typeNode, at) })
	if err != nil {
		c.notes = append(c.notes, diag.Diagnostic{
			File: js.tpos.File, Line: c.pos(typeNode, err.at).Line, Column: c.pos(typeNode, err.at).Col,
			Severity: diag.Info, Rule: "reply-type", Entry: c.e.ID,
			Message: fmt.Sprintf("the type of %s is not in the part of TypeScript and zod lore reads (%s): replies are only checked to be JSON (docs/formats-replies.md)", c.idHint(s), err.msg),
		})
		return true
	}
	js.decls = d
	name := ""
	for _, n := range d.order {
		if m := regexp.MustCompile(`(?:^|[^\p{L}\p{N}_])` + regexp.QuoteMeta(n) + `(\[\])?(?:[^\p{L}\p{N}_]|$)`).FindStringSubmatch(js.desc); m != nil {
			if name == "" || len(n) > len(name) {
				name, js.array = n, m[1] != ""
			}
		}
	}
	switch {
	case name != "":
		js.root = d.m[name]
	case len(d.order) == 1:
		name, js.root, js.either = d.order[0], d.m[d.order[0]], true
	}
	if l := parseLimit(js.desc, inJSON, name); l != nil && (js.array || js.either) {
		js.limit, js.lpos = l, c.pos(fp.node, fp.at+l.at)
	}
	return true
}

var fenceRe = regexp.MustCompile("^```[A-Za-z]*$")

func (c *compiler) idHint(s *outformat.Site) string {
	if s.Name != "" {
		return c.e.ID + "#" + s.Name
	}
	return c.e.ID
}

// jsonCheck checks one JSON value of a reply against a type.
type jsonCheck struct {
	d   *decls
	out func(n *yaml.Node, sev diag.Severity, rule string, tpl diag.Pos, format string, args ...any)
}

// fits says whether n is a value of t, reporting nothing.
func (k *jsonCheck) fits(n *yaml.Node, t *typ, depth int) bool {
	if depth > 64 {
		return true
	}
	t = k.resolve(t)
	if t == nil {
		return true
	}
	if isNull(n) && (t.nullable || t.kind == tNull || t.kind == tAny) {
		return true
	}
	switch t.kind {
	case tAny:
		return true
	case tString:
		return isString(n) && inBounds(float64(utf8.RuneCountInString(n.Value)), t)
	case tNumber:
		f, ok := number(n)
		return ok && inBounds(f, t)
	case tBool:
		return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool"
	case tNull:
		return isNull(n)
	case tUndefined:
		return false
	case tLit:
		return litFits(n, t.lit)
	case tUnion:
		for _, a := range t.alts {
			if k.fits(n, a, depth+1) {
				return true
			}
		}
		return false
	case tInter:
		for _, a := range t.alts {
			if !k.fits(n, a, depth+1) {
				return false
			}
		}
		return true
	case tArray:
		if n.Kind != yaml.SequenceNode || !inBounds(float64(len(n.Content)), t) {
			return false
		}
		for _, x := range n.Content {
			if !k.fits(x, t.elem, depth+1) {
				return false
			}
		}
		return true
	case tRecord:
		if n.Kind != yaml.MappingNode {
			return false
		}
		for i := 1; i < len(n.Content); i += 2 {
			if !k.fits(n.Content[i], t.elem, depth+1) {
				return false
			}
		}
		return true
	case tObject:
		if n.Kind != yaml.MappingNode {
			return false
		}
		for _, f := range t.fields {
			v := lookup(n, f.name)
			if v == nil {
				if !f.optional {
					return false
				}
				continue
			}
			if !k.fits(v, f.t, depth+1) {
				return false
			}
		}
		if t.strict {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if fieldOf(t, n.Content[i].Value) == nil {
					return false
				}
			}
		}
		return true
	}
	return true
}

func (k *jsonCheck) resolve(t *typ) *typ {
	for i := 0; t != nil && t.kind == tRef && i < 16; i++ {
		r := k.d.m[t.ref]
		if r == nil {
			return nil // an unknown name: not checked
		}
		if t.optional || t.nullable {
			r = copyTyp(r)
			r.optional, r.nullable = r.optional || t.optional, r.nullable || t.nullable
		}
		t = r
	}
	if t != nil && t.kind == tRef {
		return nil
	}
	return t
}

// check reports every way n is not a value of t; path names n in messages.
func (k *jsonCheck) check(n *yaml.Node, t *typ, path string, depth int) {
	t = k.resolve(t)
	if t == nil || depth > 64 || k.fits(n, t, depth) {
		return
	}
	sev := diag.Error
	tail := ""
	if t.hasCatch {
		sev, tail = diag.Warning, fmt.Sprintf("; the schema's .catch(%s) puts %s in its place", t.catch, t.catch)
	}
	say := func(format string, args ...any) {
		k.out(n, sev, "reply-json", t.pos, format+tail, args...)
	}
	switch {
	case t.kind == tObject && n.Kind == yaml.MappingNode:
		for _, f := range t.fields {
			v := lookup(n, f.name)
			if v == nil {
				if !f.optional {
					k.out(n, sev, "reply-json", f.pos, "%s has no field %q (%s: %s)%s", path, f.name, f.name, f.t.describe(k.d), tail)
				}
				continue
			}
			k.check(v, f.t, path+fieldPath(f.name), depth+1)
		}
		if t.strict {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if fieldOf(t, n.Content[i].Value) == nil {
					k.out(n.Content[i], sev, "reply-json", t.pos, "%s has a field %q the schema does not allow (it is .strict())", path, n.Content[i].Value)
				}
			}
		}
	case t.kind == tArray && n.Kind == yaml.SequenceNode:
		if !inBounds(float64(len(n.Content)), t) {
			say("%s has %d items; the schema asks for %s", path, len(n.Content), bounds(t))
		}
		for i, x := range n.Content {
			k.check(x, t.elem, fmt.Sprintf("%s[%d]", path, i), depth+1)
		}
	case t.kind == tRecord && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k.check(n.Content[i+1], t.elem, path+fieldPath(n.Content[i].Value), depth+1)
		}
	case t.kind == tInter:
		for _, a := range t.alts {
			k.check(n, a, path, depth+1)
		}
	case t.kind == tUnion && allLiterals(t):
		var vs []string
		for i, a := range t.alts {
			if i == 8 {
				vs = append(vs, "…")
				break
			}
			vs = append(vs, a.lit.String())
		}
		say("%s is %s, not one of %s", path, show(n), strings.Join(vs, ", "))
	case t.kind == tUnion:
		// The alternative of the value's own kind says best what is wrong.
		for _, a := range t.alts {
			if r := k.resolve(a); r != nil && sameKind(n, r) && !(r.kind == tUnion) {
				k.check(n, a, path, depth+1)
				return
			}
		}
		say("%s is %s; the type says %s", path, show(n), t.describe(k.d))
	case t.kind == tLit:
		say("%s is %s; the type says %s", path, show(n), t.lit.String())
	case (t.kind == tString || t.kind == tNumber) && sameKind(n, t):
		say("%s is %s; the schema asks for %s", path, show(n), boundsOf(t))
	default:
		say("%s is %s; the type says %s", path, show(n), t.describe(k.d))
	}
}

func fieldOf(t *typ, name string) *field {
	for _, f := range t.fields {
		if f.name == name {
			return f
		}
	}
	return nil
}

func lookup(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func isNull(n *yaml.Node) bool   { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }
func isString(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" }

func number(n *yaml.Node) (float64, bool) {
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	return f, err == nil
}

func litFits(n *yaml.Node, l litVal) bool {
	switch l.kind {
	case 's':
		return isString(n) && n.Value == l.s
	case 'n':
		f, ok := number(n)
		return ok && f == l.n
	}
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" && n.Value == l.s
}

func inBounds(x float64, t *typ) bool {
	return (t.min == nil || x >= *t.min) && (t.max == nil || x <= *t.max)
}

func bounds(t *typ) string {
	f := func(x *float64) string { return strconv.FormatFloat(*x, 'g', -1, 64) }
	switch {
	case t.min != nil && t.max != nil && *t.min == *t.max:
		return "exactly " + f(t.min)
	case t.min != nil && t.max != nil:
		return f(t.min) + " to " + f(t.max)
	case t.min != nil:
		return "at least " + f(t.min)
	case t.max != nil:
		return "at most " + f(t.max)
	}
	return "any number"
}

// boundsOf says what a string's length or a number must be.
func boundsOf(t *typ) string {
	if t.kind == tString {
		return "a text of " + bounds(t) + " characters"
	}
	return "a number of " + bounds(t)
}

func allLiterals(t *typ) bool {
	for _, a := range t.alts {
		if a.kind != tLit {
			return false
		}
	}
	return len(t.alts) > 0
}

func sameKind(n *yaml.Node, t *typ) bool {
	switch t.kind {
	case tObject, tRecord:
		return n.Kind == yaml.MappingNode
	case tArray:
		return n.Kind == yaml.SequenceNode
	case tString:
		return isString(n)
	case tNumber:
		_, ok := number(n)
		return ok
	}
	return false
}

// show writes a JSON value shortly, for messages.
func show(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "an object"
	case yaml.SequenceNode:
		return fmt.Sprintf("a list of %d", len(n.Content))
	}
	switch n.ShortTag() {
	case "!!str":
		return strconv.Quote(shorten(n.Value, 24))
	case "!!null":
		return "null"
	}
	return n.Value
}

var identRe = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*$`)

func fieldPath(name string) string {
	if identRe.MatchString(name) {
		return "." + name
	}
	return "[" + strconv.Quote(name) + "]"
}
