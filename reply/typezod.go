package reply

import (
	"strconv"
)

// zod reads a zod schema expression: z.object({…}), z.string().describe(…),
// a constant declared before, with the methods that change what JSON fits.
func (p *typeParser) zod() *typ {
	at := p.peek().at
	if !p.enter(at) {
		return nil
	}
	defer func() { p.depth-- }()
	var t *typ
	switch {
	case p.is('i', "z") && p.peekAt(1).text == ".":
		p.next()
		p.next()
		t = p.zodMaker()
	case p.peek().kind == 'i':
		t = &typ{kind: tRef, ref: p.next().text, pos: p.pos(at), zod: true}
	default:
		return p.fail(at, "expected a zod schema (z.…), found %q", p.peek().text)
	}
	for t != nil && p.err == nil && p.is('p', ".") {
		p.next()
		m := p.next()
		if m.kind != 'i' || !p.expect('p', "(") {
			return p.fail(m.at, "expected a method call after \".\"")
		}
		t = p.zodMethod(t, m)
	}
	return t
}

// zodMaker reads z.NAME(…) after "z.".
func (p *typeParser) zodMaker() *typ {
	m := p.next()
	at := p.pos(m.at)
	if m.kind != 'i' {
		return p.fail(m.at, "expected a zod schema name after z.")
	}
	if m.text == "coerce" {
		// z.coerce.number() takes anything it can convert: not checked.
		p.expect('p', ".")
		p.next()
		if p.expect('p', "(") {
			p.skipBalanced("(")
			p.expect('p', ")")
		}
		return &typ{kind: tAny, pos: at, zod: true}
	}
	if !p.expect('p', "(") {
		return nil
	}
	t := &typ{pos: at, zod: true}
	switch m.text {
	case "string", "date", "iso":
		t.kind = tString
	case "number", "bigint", "int":
		t.kind = tNumber
	case "boolean":
		t.kind = tBool
	case "null":
		t.kind = tNull
	case "undefined", "void":
		t.kind, t.optional = tUndefined, true
	case "any", "unknown", "nativeEnum", "lazy", "custom", "instanceof", "function", "never":
		t.kind = tAny
		p.skipBalanced("(")
	case "literal":
		v := p.next()
		switch {
		case v.kind == 's':
			t.kind, t.lit = tLit, litVal{kind: 's', s: v.text}
		case v.kind == 'n':
			n, _ := strconv.ParseFloat(v.text, 64)
			t.kind, t.lit = tLit, litVal{kind: 'n', n: n}
		case v.kind == 'i' && (v.text == "true" || v.text == "false"):
			t.kind, t.lit = tLit, litVal{kind: 'b', s: v.text}
		default:
			return p.fail(v.at, "z.literal takes a string, number or boolean")
		}
	case "enum":
		if !p.expect('p', "[") {
			return nil
		}
		t.kind = tUnion
		for !p.accept('p', "]") {
			v := p.next()
			if v.kind != 's' {
				return p.fail(v.at, "z.enum takes a list of strings")
			}
			t.alts = append(t.alts, &typ{kind: tLit, lit: litVal{kind: 's', s: v.text}, pos: p.pos(v.at), zod: true})
			p.accept('p', ",")
		}
		if len(t.alts) == 0 {
			return p.fail(m.at, "z.enum([]) has no values")
		}
	case "union", "discriminatedUnion":
		if m.text == "discriminatedUnion" {
			p.next() // the discriminator's name
			p.expect('p', ",")
		}
		if !p.expect('p', "[") {
			return nil
		}
		t.kind = tUnion
		for !p.accept('p', "]") {
			a := p.zod()
			if a == nil {
				return nil
			}
			t.alts = append(t.alts, a)
			p.accept('p', ",")
		}
	case "intersection":
		t.kind = tInter
		a := p.zod()
		p.expect('p', ",")
		b := p.zod()
		if a == nil || b == nil {
			return nil
		}
		t.alts = []*typ{a, b}
	case "array", "optional", "nullable", "set":
		e := p.zod()
		if e == nil {
			return nil
		}
		switch m.text {
		case "optional":
			t = copyTyp(e)
			t.optional = true
		case "nullable":
			t = copyTyp(e)
			t.nullable = true
		default:
			t.kind, t.elem = tArray, e
		}
		p.skipBalanced("(")
	case "record", "map":
		k := p.zod()
		if k == nil {
			return nil
		}
		t.kind, t.elem = tRecord, k
		if p.accept('p', ",") {
			if t.elem = p.zod(); t.elem == nil {
				return nil
			}
		}
	case "object", "strictObject", "looseObject":
		t.kind = tObject
		t.strict = m.text == "strictObject"
		if !p.expect('p', "{") {
			return nil
		}
		for !p.accept('p', "}") {
			if p.err != nil {
				return nil
			}
			name := p.next()
			if name.kind != 'i' && name.kind != 's' {
				return p.fail(name.at, "expected a field name in z.object, found %q", name.text)
			}
			if !p.expect('p', ":") {
				return nil
			}
			ft := p.zod()
			if ft == nil {
				return nil
			}
			t.fields = append(t.fields, &field{name: name.text, t: ft, optional: ft.optional, pos: p.pos(name.at)})
			p.accept('p', ",")
		}
	case "tuple":
		return p.fail(m.at, "lore does not read z.tuple; use z.array")
	default:
		return p.fail(m.at, "lore does not read z.%s", m.text)
	}
	if p.err != nil || !p.expect('p', ")") {
		return nil
	}
	return t
}

func copyTyp(t *typ) *typ {
	c := *t
	return &c
}

// zodMethod applies .NAME(…) (its "(" read) to t.
func (p *typeParser) zodMethod(t *typ, m tok) *typ {
	num := func() *float64 {
		v := p.peek()
		if v.kind != 'n' {
			return nil
		}
		p.next()
		n, err := strconv.ParseFloat(v.text, 64)
		if err != nil {
			return nil
		}
		return &n
	}
	t = copyTyp(t)
	switch m.text {
	case "optional", "nullish", "default", "prefault":
		t.optional = true
		t.nullable = t.nullable || m.text == "nullish"
		p.skipBalanced("(")
	case "nullable":
		t.nullable = true
	case "catch":
		v := p.peek()
		t.hasCatch, t.catch = true, v.text
		if v.kind == 's' {
			t.catch = strconv.Quote(v.text)
		}
		p.skipBalanced("(")
	case "min", "gte", "nonempty":
		n := num()
		if m.text == "nonempty" {
			one := 1.0
			n = &one
		}
		t.min = n
		p.skipBalanced("(")
	case "max", "lte":
		t.max = num()
		p.skipBalanced("(")
	case "length":
		n := num()
		t.min, t.max = n, n
		p.skipBalanced("(")
	case "positive", "nonnegative":
		zero := 0.0
		t.min = &zero
	case "strict":
		t.strict = true
	case "array":
		t = &typ{kind: tArray, elem: t, pos: t.pos, zod: true}
	case "or":
		b := p.zod()
		if b == nil {
			return nil
		}
		t = &typ{kind: tUnion, alts: []*typ{t, b}, pos: t.pos, zod: true}
	case "and", "merge", "extend":
		b := p.zod()
		if b == nil && m.text == "extend" {
			return p.fail(m.at, "lore does not read .extend({…}); write the fields out")
		}
		if b == nil {
			return nil
		}
		t = &typ{kind: tInter, alts: []*typ{t, b}, pos: t.pos, zod: true}
	default:
		// describe, refine, transform, brand, trim, email, int, …: what JSON
		// fits is unchanged, or is more than the checker can decide.
		p.skipBalanced("(")
	}
	if p.err != nil || !p.expect('p', ")") {
		return nil
	}
	return t
}
