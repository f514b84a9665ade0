package reply

import (
	"strconv"
	"strings"

	"github.com/lorekit/lore/diag"
)

// typ is a JSON type read from a TypeScript or zod declaration.
type typ struct {
	kind   tkind
	lit    litVal   // tLit
	fields []*field // tObject
	elem   *typ     // tArray, tRecord
	alts   []*typ   // tUnion, tInter
	ref    string   // tRef
	pos    diag.Pos // where it is declared
	// zod: declared with zod, whose objects let unknown fields through
	// unless strict.
	zod, strict bool
	// catch is zod's .catch(value): a value that does not fit is replaced.
	catch    string
	hasCatch bool
	// min and max bound a string's length, an array's items or a number
	// (zod's .min, .max, .length, .nonempty, .positive, …); nil when free.
	min, max *float64
	optional bool // may be left out (zod .optional(), .default(); undefined in a TypeScript union)
	nullable bool
}

type tkind uint8

const (
	tAny tkind = iota
	tString
	tNumber
	tBool
	tNull
	tUndefined
	tLit
	tObject
	tArray
	tRecord
	tUnion
	tInter
	tRef
)

type litVal struct {
	kind byte // 's' string, 'n' number, 'b' boolean
	s    string
	n    float64
}

func (l litVal) String() string {
	switch l.kind {
	case 's':
		return strconv.Quote(l.s)
	case 'n':
		return strconv.FormatFloat(l.n, 'g', -1, 64)
	}
	return l.s
}

type field struct {
	name     string
	t        *typ
	optional bool
	pos      diag.Pos
}

// decls are the named types of a `type:` block, in written order.
type decls struct {
	order []string
	m     map[string]*typ
}

func (d *decls) add(name string, t *typ) {
	if t == nil {
		return
	}
	if _, ok := d.m[name]; !ok {
		d.order = append(d.order, name)
	}
	d.m[name] = t
}

// parseTypes reads a `type:` block: TypeScript `interface` and `type`
// declarations, and zod schemas assigned with `const` (a `type X =
// z.infer<typeof X>` beside them is passed over). pos maps an offset of src to
// the template.
func parseTypes(src string, pos func(int) diag.Pos) (*decls, *typeError) {
	ts, err := lexTypes(src)
	if err != nil {
		return nil, err
	}
	p := &typeParser{tokens: tokens{t: ts}, pos: pos}
	d := &decls{m: map[string]*typ{}}
	for p.peek().kind != 0 && p.err == nil {
		p.accept('i', "export")
		p.accept('i', "declare")
		t := p.peek()
		switch {
		case p.accept('p', ";"):
		case p.accept('i', "interface"):
			name := p.next()
			if name.kind != 'i' {
				p.fail(name.at, "expected the interface's name")
				break
			}
			if p.is('p', "<") || p.is('i', "extends") {
				p.fail(p.peek().at, "lore does not read generic interfaces or `extends`; write the fields out")
				break
			}
			if !p.expect('p', "{") {
				break
			}
			d.add(name.text, p.object(name.at))
		case p.accept('i', "type"):
			name := p.next()
			if name.kind != 'i' || !p.expect('p', "=") {
				p.fail(name.at, "expected `type Name = …`")
				break
			}
			if p.is('i', "z") && p.peekAt(1).text == "." && p.peekAt(2).text == "infer" {
				p.skipStatement()
				break
			}
			d.add(name.text, p.union())
			p.accept('p', ";")
		case p.is('i', "const") || p.is('i', "let") || p.is('i', "var"):
			p.next()
			name := p.next()
			if name.kind != 'i' || !p.expect('p', "=") {
				p.fail(name.at, "expected `const Name = z.…`")
				break
			}
			d.add(name.text, p.zod())
			p.accept('p', ";")
		default:
			p.fail(t.at, "lore reads `interface`, `type` and zod `const` declarations here, not %q", t.text)
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return d, nil
}

type typeParser struct {
	tokens
	pos   func(int) diag.Pos
	depth int
}

// skipStatement skips to the end of a statement: a ";" outside brackets, or
// the next declaration keyword.
func (p *typeParser) skipStatement() {
	depth := 0
	for t := p.peek(); t.kind != 0; t = p.peek() {
		if depth == 0 && (t.text == ";" || t.kind == 'i' && (t.text == "const" || t.text == "interface" || t.text == "type" || t.text == "export")) {
			p.accept('p', ";")
			return
		}
		if t.kind == 'p' {
			switch t.text {
			case "(", "[", "{", "<":
				depth++
			case ")", "]", "}", ">":
				depth--
			}
		}
		p.next()
	}
}

func (p *typeParser) enter(at int) bool {
	p.depth++
	if p.depth > 64 {
		p.fail(at, "the declaration nests too deep")
		return false
	}
	return true
}

// union: A | B | C.
func (p *typeParser) union() *typ {
	at := p.peek().at
	if !p.enter(at) {
		return nil
	}
	defer func() { p.depth-- }()
	p.accept('p', "|")
	var alts []*typ
	for {
		t := p.inter()
		if t == nil {
			return nil
		}
		alts = append(alts, t)
		if !p.accept('p', "|") {
			break
		}
	}
	if len(alts) == 1 {
		return alts[0]
	}
	u := &typ{kind: tUnion, pos: p.pos(at)}
	for _, a := range alts {
		switch a.kind {
		case tUndefined:
			u.optional = true
		case tNull:
			u.nullable = true
			u.alts = append(u.alts, a)
		default:
			u.alts = append(u.alts, a)
		}
	}
	return u
}

// inter: A & B.
func (p *typeParser) inter() *typ {
	at := p.peek().at
	t := p.postfix()
	if t == nil || !p.is('p', "&") {
		return t
	}
	it := &typ{kind: tInter, alts: []*typ{t}, pos: p.pos(at)}
	for p.accept('p', "&") {
		x := p.postfix()
		if x == nil {
			return nil
		}
		it.alts = append(it.alts, x)
	}
	return it
}

// postfix: T[] and T[][].
func (p *typeParser) postfix() *typ {
	at := p.peek().at
	t := p.primary()
	for t != nil && p.is('p', "[") && p.peekAt(1).text == "]" {
		p.next()
		p.next()
		t = &typ{kind: tArray, elem: t, pos: p.pos(at)}
	}
	return t
}

var tsWords = map[string]tkind{"string": tString, "number": tNumber, "bigint": tNumber, "boolean": tBool,
	"null": tNull, "undefined": tUndefined, "void": tUndefined, "any": tAny, "unknown": tAny, "object": tAny}

func (p *typeParser) primary() *typ {
	t := p.next()
	at := p.pos(t.at)
	switch {
	case t.kind == 's':
		return &typ{kind: tLit, lit: litVal{kind: 's', s: t.text}, pos: at}
	case t.kind == 'n' || t.kind == 'p' && t.text == "-" && p.peek().kind == 'n':
		text := t.text
		if t.kind == 'p' {
			text = "-" + p.next().text
		}
		n, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return p.fail(t.at, "%q is not a number", text)
		}
		return &typ{kind: tLit, lit: litVal{kind: 'n', n: n}, pos: at}
	case t.kind == 'i':
		if k, ok := tsWords[t.text]; ok {
			return &typ{kind: k, pos: at}
		}
		switch t.text {
		case "true", "false":
			return &typ{kind: tLit, lit: litVal{kind: 'b', s: t.text}, pos: at}
		case "Array", "ReadonlyArray":
			if !p.expect('p', "<") {
				return nil
			}
			e := p.union()
			if e == nil || !p.expect('p', ">") {
				return nil
			}
			return &typ{kind: tArray, elem: e, pos: at}
		case "Record":
			if !p.expect('p', "<") || p.union() == nil || !p.expect('p', ",") {
				return nil
			}
			v := p.union()
			if v == nil || !p.expect('p', ">") {
				return nil
			}
			return &typ{kind: tRecord, elem: v, pos: at}
		}
		if p.is('p', "<") || p.is('p', ".") {
			return p.fail(t.at, "lore does not read generic or qualified types such as %s<…>; write the type out", t.text)
		}
		return &typ{kind: tRef, ref: t.text, pos: at}
	case t.kind == 'p' && t.text == "{":
		return p.object(t.at)
	case t.kind == 'p' && t.text == "(":
		u := p.union()
		if u == nil || !p.expect('p', ")") {
			return nil
		}
		return u
	case t.kind == 'p' && t.text == "[":
		return p.fail(t.at, "lore does not read tuple types ([A, B]); use A[] or an interface")
	}
	if t.kind == 0 {
		return p.fail(t.at, "a type is missing at the end")
	}
	return p.fail(t.at, "expected a type, found %q", t.text)
}

// object reads the members of { … } after its "{".
func (p *typeParser) object(at int) *typ {
	if !p.enter(at) {
		return nil
	}
	defer func() { p.depth-- }()
	o := &typ{kind: tObject, pos: p.pos(at)}
	for !p.accept('p', "}") {
		if p.err != nil {
			return nil
		}
		if p.peek().kind == 0 {
			return p.fail(at, "{ is never closed")
		}
		p.accept('i', "readonly")
		name := p.next()
		if name.kind == 'p' && name.text == "[" {
			// An index signature: [key: string]: T.
			p.skipBalanced("[")
			p.expect('p', "]")
			if !p.expect('p', ":") {
				return nil
			}
			v := p.union()
			if v == nil {
				return nil
			}
			o.kind, o.elem = tRecord, v
			p.accept('p', ";")
			p.accept('p', ",")
			continue
		}
		if name.kind != 'i' && name.kind != 's' && name.kind != 'n' {
			return p.fail(name.at, "expected a field name, found %q", name.text)
		}
		f := &field{name: name.text, pos: p.pos(name.at)}
		f.optional = p.accept('p', "?")
		if p.is('p', "(") {
			return p.fail(name.at, "%s is a method: JSON has no functions", name.text)
		}
		if !p.expect('p', ":") {
			return nil
		}
		if f.t = p.union(); f.t == nil {
			return nil
		}
		f.optional = f.optional || f.t.optional
		o.fields = append(o.fields, f)
		if !p.accept('p', ";") {
			p.accept('p', ",")
		}
	}
	return o
}

// describe names a type in messages: string, "a" | "b", Chat, Chat[].
func (t *typ) describe(d *decls) string {
	switch t.kind {
	case tAny:
		return "any"
	case tString:
		return "string"
	case tNumber:
		return "number"
	case tBool:
		return "boolean"
	case tNull:
		return "null"
	case tUndefined:
		return "undefined"
	case tLit:
		return t.lit.String()
	case tObject:
		return "an object"
	case tRecord:
		return "an object of " + t.elem.describe(d)
	case tArray:
		s := t.elem.describe(d)
		if strings.Contains(s, " ") {
			s = "(" + s + ")"
		}
		return s + "[]"
	case tRef:
		return t.ref
	}
	var parts []string
	for i, a := range t.alts {
		if i == 6 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, a.describe(d))
	}
	sep := " | "
	if t.kind == tInter {
		sep = " & "
	}
	return strings.Join(parts, sep)
}
