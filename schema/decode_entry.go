package schema

import "gopkg.in/yaml.v3"

// entry decodes one entry mapping and applies SPEC §1's defaults. Its fields
// fall in four groups, each decoded by its own method: the text, where the
// entry goes in the prompt, what activates it, and what only tools read.
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
		}
	default:
		return false
	}
	return true
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
