package schema

import (
	"math"
	"strconv"

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
	kept  map[[2]string]string // keptName's strings
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

// valueOf returns the value of key in mapping m, nil when m has no such key.
func valueOf(m *yaml.Node, key string) *yaml.Node {
	ps, _ := pairs(m)
	for _, p := range ps {
		if p.Key == key {
			return p.Value
		}
	}
	return nil
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
