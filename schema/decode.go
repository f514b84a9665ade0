package schema

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// decoder turns position-carrying nodes into the model. It is lenient: a value
// of the wrong type is skipped (the field keeps its default), because the JSON
// Schema check reports it with a better message; the decoder only reports what
// the schema cannot see (duplicate keys).
type decoder struct {
	file  string
	data  []byte
	li    *lineIndex
	diags []diag.Diagnostic
}

func newDecoder(file string, data []byte) *decoder {
	return &decoder{file: file, data: data}
}

func (d *decoder) pos(n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: d.file}
	}
	return Pos{File: d.file, Line: n.Line, Col: n.Column}
}

// fields lists a mapping's pairs and reports duplicate keys.
func (d *decoder) fields(m *yaml.Node) []pair {
	ps, dups := pairs(m)
	for _, dp := range dups {
		first := ""
		for _, p := range ps {
			if p.Key == dp.Key {
				first = strconv.Itoa(p.KeyN.Line) + ":" + strconv.Itoa(p.KeyN.Column)
			}
		}
		d.diags = append(d.diags, diag.New(d.pos(dp.KeyN), diag.Error, "schema",
			"field %q is given twice (first at %s); the later value would be lost", dp.Key, first))
	}
	return ps
}

func str(n *yaml.Node) (string, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		return "", false
	}
	return n.Value, true
}

func boolean(n *yaml.Node) (bool, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, false
	}
	b, ok := scalarValue(n).(bool)
	return b, ok
}

func number(n *yaml.Node) (float64, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return 0, false
	}
	if t := n.ShortTag(); t != "!!int" && t != "!!float" {
		return 0, false
	}
	f, ok := scalarValue(n).(float64)
	return f, ok
}

func integer(n *yaml.Node) (int, bool) {
	f, ok := number(n)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

// set stores conv(n) in *dst when n holds a value of that type, and leaves
// the default there otherwise (the schema check reports the wrong type).
func set[T any](dst *T, n *yaml.Node, conv func(*yaml.Node) (T, bool)) {
	if v, ok := conv(n); ok {
		*dst = v
	}
}

func items(n *yaml.Node) []*yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// keywords decodes a list of strings with their positions.
func (d *decoder) keywords(n *yaml.Node) []Keyword {
	var out []Keyword
	for _, c := range items(n) {
		if s, ok := str(c); ok {
			out = append(out, Keyword{Text: s, Pos: d.pos(c)})
		}
	}
	return out
}

func (d *decoder) strings(n *yaml.Node) []string {
	var out []string
	for _, c := range items(n) {
		if s, ok := str(c); ok {
			out = append(out, s)
		}
	}
	return out
}

// entry decodes one entry mapping and applies SPEC §1's defaults.
func (d *decoder) entry(n *yaml.Node) *Entry {
	e := &Entry{
		Pos:                   d.pos(n),
		Fields:                map[string]Pos{},
		Role:                  "character",
		APIRole:               "system",
		Enabled:               true,
		ConditionLogic:        "all",
		SecondaryKeywordLogic: AndAny,
	}
	var alwaysSend *yaml.Node
	for _, p := range d.fields(n) {
		v := p.Value
		e.Fields[p.Key] = d.pos(v)
		switch p.Key {
		case "id":
			e.ID, _ = str(v)
		case "name":
			e.Name, _ = str(v)
		case "content":
			if s, ok := str(v); ok {
				e.Content = s
				d.contentPos(e, v)
			}
		case "role":
			set(&e.Role, v, str)
		case "apiRole":
			set(&e.APIRole, v, str)
		case "section":
			e.Section, _ = str(v)
		case "position":
			e.Position, _ = integer(v)
		case "enabled":
			set(&e.Enabled, v, boolean)
		case "alwaysSend":
			alwaysSend = v // applied once the section is known
		case "keywords":
			e.Keywords = d.keywords(v)
		case "conditions":
			for _, c := range items(v) {
				e.Conditions = append(e.Conditions, d.condition(c))
			}
		case "conditionLogic":
			set(&e.ConditionLogic, v, str)
		case "depth":
			if i, ok := integer(v); ok {
				e.Depth = &i
			}
		case "matchWholeWords":
			e.MatchWholeWords, _ = boolean(v)
		case "secondaryKeywords":
			e.SecondaryKeywords = d.keywords(v)
		case "secondaryKeywordLogic":
			set(&e.SecondaryKeywordLogic, v, str)
		case "preventRecursion":
			e.PreventRecursion, _ = boolean(v)
		case "excludeRecursion":
			e.ExcludeRecursion, _ = boolean(v)
		case "tags":
			e.Tags = d.strings(v)
		case "folderId":
			e.FolderID, _ = str(v)
		case "lint":
			e.Lint.Pos = d.pos(v)
			for _, lp := range d.fields(v) {
				switch lp.Key {
				case "ignore":
					if s, ok := str(lp.Value); ok { // a single rule id is accepted too
						e.Lint.Ignore = []Keyword{{Text: s, Pos: d.pos(lp.Value)}}
					} else {
						e.Lint.Ignore = d.keywords(lp.Value)
					}
				case "reason":
					e.Lint.Reason, _ = str(lp.Value)
				}
			}
		case "extensions":
			if m, ok := ToValue(v).(map[string]any); ok {
				e.Extensions = m
			}
		}
	}
	e.AlwaysSend = DefaultAlwaysSend(e.Section)
	set(&e.AlwaysSend, alwaysSend, boolean)
	if e.Name == "" {
		e.Name = e.ID
	}
	return e
}

// valueOf returns the value of key in mapping m, or nil when m has no key.
func valueOf(m *yaml.Node, key string) *yaml.Node {
	ps, _ := pairs(m)
	for _, p := range ps {
		if p.Key == key {
			return p.Value
		}
	}
	return nil
}

// contentPos records where the text of content starts and, where the source
// maps one to one onto the text, a function from offsets to positions.
func (d *decoder) contentPos(e *Entry, v *yaml.Node) {
	at := v
	v = resolve(v)
	e.ContentPos = d.pos(at)
	if at != v { // an alias: point at the alias, the text lives elsewhere
		return
	}
	switch v.Style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		// yaml.v3 gives the indicator's line; the text starts on the next line,
		// at the block's indentation.
		if d.li == nil {
			d.li = newLineIndex(d.file, d.data)
		}
		first := v.Line + 1
		indent := blockIndent(d.li, first)
		e.ContentPos = Pos{File: d.file, Line: first, Col: indent + 1}
		if v.Style == yaml.LiteralStyle {
			file, content := d.file, e.Content
			e.ContentLine = func(off int) Pos {
				off = max(0, min(off, len(content)))
				line, start := first, 0
				for i := 0; i < off; i++ {
					if content[i] == '\n' {
						line++
						start = i + 1
					}
				}
				return Pos{File: file, Line: line, Col: indent + 1 + utf8.RuneCountInString(content[start:off])}
			}
		}
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		e.ContentPos.Col++ // past the quote
		if d.li == nil {
			d.li = newLineIndex(d.file, d.data)
		}
		if off := d.li.offset(v.Line, v.Column); off >= 0 {
			e.ContentLine = quotedLine(d.file, e.ContentPos, d.data[off:], v.Style == yaml.SingleQuotedStyle)
		}
	case 0: // plain
		if !strings.Contains(e.Content, "\n") {
			e.ContentLine = sameLine(d.file, e.ContentPos, e.Content)
		}
	}
}

// quotedLine maps offsets of the text of a quoted scalar that starts at src
// (its opening quote) and ends on the same line, decoding escapes as it goes,
// so a finding in a JSON string with \n and \u escapes lands on its column.
// A string that runs over several lines gives nil (use ContentPos).
func quotedLine(file string, p Pos, src []byte, single bool) func(int) Pos {
	if len(src) == 0 || (src[0] != '"' && src[0] != '\'') {
		return nil
	}
	// Check that the literal closes on this line.
	closed := false
	for i := 1; i < len(src) && src[i] != '\n'; i++ {
		if single && src[i] == '\'' {
			if i+1 < len(src) && src[i+1] == '\'' {
				i++
				continue
			}
			closed = true
			break
		}
		if !single && src[i] == '\\' {
			i++
			continue
		}
		if !single && src[i] == '"' {
			closed = true
			break
		}
	}
	if !closed {
		return nil
	}
	return func(off int) Pos {
		col, content, i := p.Col, 0, 1
		for content < off && i < len(src) {
			c := src[i]
			switch {
			case single && c == '\'':
				if i+1 < len(src) && src[i+1] == '\'' {
					content++
					i += 2
					col += 2
					continue
				}
				return Pos{File: file, Line: p.Line, Col: col}
			case !single && c == '"':
				return Pos{File: file, Line: p.Line, Col: col}
			case !single && c == '\\' && i+1 < len(src):
				n, r := escapeLen(src[i+1:])
				content += utf8.RuneLen(r)
				i += 1 + n
				col += 1 + n
			default:
				_, size := utf8.DecodeRune(src[i:])
				content += size
				i += size
				col++
			}
		}
		return Pos{File: file, Line: p.Line, Col: col}
	}
}

// escapeLen reads the escape after a backslash in a JSON or YAML
// double-quoted string: how many source characters it takes and the rune it
// stands for (a JSON surrogate pair is one rune).
func escapeLen(b []byte) (int, rune) {
	hex := func(s []byte) (rune, bool) {
		var r rune
		for _, c := range s {
			switch {
			case c >= '0' && c <= '9':
				r = r*16 + rune(c-'0')
			case c >= 'a' && c <= 'f':
				r = r*16 + rune(c-'a'+10)
			case c >= 'A' && c <= 'F':
				r = r*16 + rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		return r, true
	}
	width := 0
	switch b[0] {
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	}
	if width == 0 || len(b) < 1+width {
		r, _ := utf8.DecodeRune(b)
		if r == 'N' || r == '_' {
			return 1, 0x85 // both are two-byte runes in UTF-8
		}
		if r == 'L' || r == 'P' {
			return 1, 0x2028
		}
		return 1, 'x' // one-byte escapes: \n \t \" \\ \/ ...
	}
	r, ok := hex(b[1 : 1+width])
	if !ok {
		return 1, 'x'
	}
	if b[0] == 'u' && r >= 0xD800 && r < 0xDC00 && len(b) >= 11 && b[5] == '\\' && b[6] == 'u' {
		if lo, ok := hex(b[7:11]); ok && lo >= 0xDC00 && lo < 0xE000 {
			return 11, 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
		}
	}
	if r > utf8.MaxRune || (r >= 0xD800 && r < 0xE000) {
		r = utf8.RuneError
	}
	return 1 + width, r
}

// sameLine maps offsets of a one-line scalar written without escapes.
func sameLine(file string, p Pos, content string) func(int) Pos {
	return func(off int) Pos {
		off = max(0, min(off, len(content)))
		return Pos{File: file, Line: p.Line, Col: p.Col + utf8.RuneCountInString(content[:off])}
	}
}

// blockIndent is the indentation of the first non-blank line from line on.
func blockIndent(li *lineIndex, line int) int {
	for l := line; l <= len(li.starts); l++ {
		off := li.starts[l-1]
		n := 0
		for off+n < len(li.data) && li.data[off+n] == ' ' {
			n++
		}
		if off+n < len(li.data) && li.data[off+n] != '\n' && li.data[off+n] != '\r' {
			return n
		}
	}
	return 0
}

func (d *decoder) condition(n *yaml.Node) Condition {
	c := Condition{Pos: d.pos(n), Fields: map[string]Pos{}}
	for _, p := range d.fields(n) {
		c.Fields[p.Key] = d.pos(p.Value)
		switch p.Key {
		case "variableId":
			c.VariableID, _ = str(p.Value)
		case "operator":
			c.Operator, _ = str(p.Value)
		case "value":
			c.Value = ToValue(p.Value)
		}
	}
	return c
}

// manifest decodes the manifest keys of a mapping (entries are left to the caller).
func (d *decoder) manifest(n *yaml.Node) Manifest {
	m := Manifest{Pos: d.pos(n), Fields: map[string]Pos{}, Settings: DefaultSettings()}
	for _, p := range d.fields(n) {
		v := p.Value
		m.Fields[p.Key] = d.pos(v)
		switch p.Key {
		case "name":
			m.Name, _ = str(v)
		case "description":
			m.Description, _ = str(v)
		case "character":
			m.Character, _ = str(v)
		case "format":
			m.Format, _ = str(v)
		case "settings":
			m.Settings = d.settings(v)
		case "variables":
			for _, c := range items(v) {
				m.Variables = append(m.Variables, d.variable(c))
			}
		case "persona":
			if resolve(v) != nil && resolve(v).Kind == yaml.MappingNode {
				m.Persona = d.persona(v)
			}
		case "presets":
			m.Presets = d.keywords(v)
		case "transforms":
			for _, c := range items(v) {
				m.Transforms = append(m.Transforms, d.transform(c))
			}
		case "folders":
			for _, c := range items(v) {
				f := Folder{Pos: d.pos(c)}
				for _, fp := range d.fields(c) {
					switch fp.Key {
					case "id":
						f.ID, _ = str(fp.Value)
					case "name":
						f.Name, _ = str(fp.Value)
					}
				}
				if f.Name == "" {
					f.Name = f.ID
				}
				m.Folders = append(m.Folders, f)
			}
		case "extensions":
			if x, ok := ToValue(v).(map[string]any); ok {
				m.Extensions = x
			}
		}
	}
	return m
}

func (d *decoder) settings(n *yaml.Node) Settings {
	s := DefaultSettings()
	s.Fields = map[string]Pos{}
	for _, p := range d.fields(n) {
		v := p.Value
		s.Fields[p.Key] = d.pos(v)
		switch p.Key {
		case "contextTokens":
			set(&s.ContextTokens, v, integer)
		case "responseReserve":
			set(&s.ResponseReserve, v, integer)
		case "tokenizer":
			set(&s.Tokenizer, v, str)
		case "requiredCap":
			set(&s.RequiredCap, v, number)
		case "recursionLimit":
			set(&s.RecursionLimit, v, integer)
		case "engine":
			set(&s.Engine, v, str)
		case "yumina", "sillytavern":
			if obj, ok := ToValue(v).(map[string]any); ok {
				if s.Engines == nil {
					s.Engines = map[string]map[string]any{}
				}
				s.Engines[p.Key] = obj
			}
		case "shares":
			for _, sp := range d.fields(v) {
				s.Fields["shares."+sp.Key] = d.pos(sp.Value)
				f, ok := number(sp.Value)
				if !ok {
					continue
				}
				switch sp.Key {
				case "cards":
					s.Shares.Cards = f
				case "history":
					s.Shares.History = f
				case "memory":
					s.Shares.Memory = f
				}
			}
		}
	}
	return s
}

func (d *decoder) variable(n *yaml.Node) Variable {
	v := Variable{Pos: d.pos(n), Fields: map[string]Pos{}, Type: "string"}
	for _, p := range d.fields(n) {
		v.Fields[p.Key] = d.pos(p.Value)
		switch p.Key {
		case "id":
			v.ID, _ = str(p.Value)
		case "type":
			set(&v.Type, p.Value, str)
		case "default":
			v.Default = ToValue(p.Value)
		case "description":
			v.Description, _ = str(p.Value)
		}
	}
	if _, given := v.Fields["type"]; !given {
		// A variable without a type takes its default's, else string.
		if v.Type = TypeOf(v.Default); v.Type == "" {
			v.Type = "string"
		}
	}
	return v
}

// valueType names the variable type of a decoded value (SPEC §2's types).

func (d *decoder) persona(n *yaml.Node) *Persona {
	pe := &Persona{Pos: d.pos(n)}
	for _, p := range d.fields(n) {
		switch p.Key {
		case "name":
			pe.Name, _ = str(p.Value)
		case "appearance":
			pe.Appearance, _ = str(p.Value)
		case "backstory":
			pe.Backstory, _ = str(p.Value)
		}
	}
	return pe
}

func (d *decoder) transform(n *yaml.Node) Transform {
	t := Transform{Pos: d.pos(n), Fields: map[string]Pos{}}
	for _, p := range d.fields(n) {
		t.Fields[p.Key] = d.pos(p.Value)
		switch p.Key {
		case "pattern":
			t.Pattern, _ = str(p.Value)
		case "replace":
			t.Replace, _ = str(p.Value)
		case "minDepth":
			if i, ok := integer(p.Value); ok {
				t.MinDepth = &i
			}
		case "maxDepth":
			if i, ok := integer(p.Value); ok {
				t.MaxDepth = &i
			}
		case "roles":
			t.Roles = d.strings(p.Value)
		}
	}
	return t
}
