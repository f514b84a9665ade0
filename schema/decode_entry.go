package schema

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// entry decodes one entry mapping and applies SPEC §1's defaults. Its fields
// fall in four groups, each decoded by its own method: the text, where the
// entry goes in the prompt, what activates it, and what only tools read.
func (d *decoder) entry(n *yaml.Node) *Entry {
	e := &Entry{
		Pos:                   d.pos(n),
		Fields:                make(map[string]Pos, fieldCount(n)),
		Role:                  "character",
		APIRole:               "system",
		Enabled:               true,
		ConditionLogic:        "all",
		SecondaryKeywordLogic: AndAny,
	}
	var alwaysSend *yaml.Node
	for _, p := range d.fields(n) {
		e.Fields[p.Key] = d.pos(p.Value)
		if p.Key == "alwaysSend" {
			alwaysSend = p.Value // its default depends on the section
			continue
		}
		_ = d.entryText(e, p.Key, p.Value) || d.entryPlacement(e, p.Key, p.Value) ||
			d.entryActivation(e, p.Key, p.Value) || d.entryTooling(e, p.Key, p.Value)
	}
	e.AlwaysSend = DefaultAlwaysSend(e.Section)
	set(&e.AlwaysSend, alwaysSend, boolean)
	if e.Name == "" {
		e.Name = e.ID
	}
	return e
}

// fieldCount is how many Fields an entry mapping records: its keys, and
// the fields kept under its extensions (extensionsAt), so the map is made
// once at its size.
func fieldCount(n *yaml.Node) int {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return 0
	}
	count := len(n.Content) / 2
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "extensions" {
			continue
		}
		if x := resolve(n.Content[i+1]); x != nil && x.Kind == yaml.MappingNode {
			for j := 1; j < len(x.Content); j += 2 {
				if f := resolve(x.Content[j]); f != nil && f.Kind == yaml.MappingNode {
					count += len(f.Content) / 2
				}
			}
		}
	}
	return count
}

// entryText decodes what the entry says and who says it. Each group method
// reports whether the key was its own.
func (d *decoder) entryText(e *Entry, key string, v *yaml.Node) bool {
	switch key {
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
	default:
		return false
	}
	return true
}

// entryPlacement decodes where the entry goes in the prompt.
func (d *decoder) entryPlacement(e *Entry, key string, v *yaml.Node) bool {
	switch key {
	case "section":
		e.Section, _ = str(v)
		e.Section = knownSection(e.Section)
	case "position":
		e.Position, _ = integer(v)
	case "depth":
		if i, ok := integer(v); ok {
			e.Depth = &i
		}
	case "enabled":
		set(&e.Enabled, v, boolean)
	default:
		return false
	}
	return true
}

// entryActivation decodes what makes the entry fire: keywords, conditions,
// recursion.
func (d *decoder) entryActivation(e *Entry, key string, v *yaml.Node) bool {
	switch key {
	case "keywords":
		e.Keywords = d.keywords(v)
	case "secondaryKeywords":
		e.SecondaryKeywords = d.keywords(v)
	case "secondaryKeywordLogic":
		set(&e.SecondaryKeywordLogic, v, str)
	case "matchWholeWords":
		e.MatchWholeWords, _ = boolean(v)
	case "conditions":
		for _, c := range items(v) {
			e.Conditions = append(e.Conditions, d.condition(c))
		}
	case "conditionLogic":
		set(&e.ConditionLogic, v, str)
	case "preventRecursion":
		e.PreventRecursion, _ = boolean(v)
	case "excludeRecursion":
		e.ExcludeRecursion, _ = boolean(v)
	default:
		return false
	}
	return true
}

// entryTooling decodes what the engine ignores: tags, folders, lint
// directives and other tools' extensions.
func (d *decoder) entryTooling(e *Entry, key string, v *yaml.Node) bool {
	switch key {
	case "tags":
		e.Tags = d.strings(v)
	case "folderId":
		e.FolderID, _ = str(v)
	case "lint":
		e.Lint = d.lintDirective(v)
	case "extensions":
		if m, ok := ToValue(v).(map[string]any); ok {
			e.Extensions = m
			d.extensionsAt(e, v)
		}
	default:
		return false
	}
	return true
}

// extensionsAt records where each field another format kept is
// (e.Fields["extensions.<format>.<key>"], and one level down in a card
// entry's own extensions), as the importer records it for a file of that
// format: a finding or an explanation about a kept field (SillyTavern's
// probability) points at it in a lore file too.
func (d *decoder) extensionsAt(e *Entry, v *yaml.Node) {
	each := func(m *yaml.Node, f func(key string, val *yaml.Node)) {
		if m = resolve(m); m == nil || m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value != "<<" {
				f(k.Value, m.Content[i+1])
			}
		}
	}
	each(v, func(format string, m *yaml.Node) {
		each(m, func(key string, val *yaml.Node) {
			name := d.keptName(format, key)
			e.Fields[name] = d.pos(val)
			if key == "extensions" {
				each(val, func(sub string, x *yaml.Node) { e.Fields[d.keptName(name, sub)] = d.pos(x) })
			}
		})
	})
}

// keptName is "extensions.<format>.<key>" (or "<parent>.<key>" one level
// down), one string per name and file rather than one per entry.
func (d *decoder) keptName(parent, key string) string {
	k := [2]string{parent, key}
	if s, ok := d.kept[k]; ok {
		return s
	}
	if d.kept == nil {
		d.kept = map[[2]string]string{}
	}
	s := parent + "." + key
	if !strings.HasPrefix(parent, "extensions.") {
		s = "extensions." + s
	}
	d.kept[k] = s
	return s
}

// lintDirective decodes an entry's lint: {ignore, reason}.
func (d *decoder) lintDirective(v *yaml.Node) LintDirective {
	l := LintDirective{Pos: d.pos(v)}
	for _, p := range d.fields(v) {
		switch p.Key {
		case "ignore":
			if s, ok := str(p.Value); ok { // a single rule id is accepted too
				l.Ignore = []Keyword{{Text: s, Pos: d.pos(p.Value)}}
			} else {
				l.Ignore = d.keywords(p.Value)
			}
		case "reason":
			l.Reason, _ = str(p.Value)
		}
	}
	return l
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

// knownSection returns a section name the schema knows as its constant, so
// that entries share one copy: every rule that asks an entry's section then
// compares two identical pointers instead of reading a copy of the name from
// wherever the file put it (a cache miss per entry on a large book).
func knownSection(s string) string {
	for _, k := range [...]string{SectionChatHistory, SectionSystemPresets, SectionPostHistory, SectionExamples} {
		if s == k {
			return k
		}
	}
	return s
}
