package canon

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/schema"
)

// Output formats of the writer.
const (
	YAML = "yaml"
	JSON = "json"
)

// EncodeLorebook writes lb as one lore file (manifest keys, then entries:)
// in YAML or JSON, in the layout lore fmt gives (so fmt --check passes on
// it). Fields equal to their defaults are left out. What it writes loads back
// through schema.Load to the same lorebook.
func EncodeLorebook(lb *schema.Lorebook, format string) ([]byte, error) {
	if format != JSON && format != YAML && format != "" {
		return nil, fmt.Errorf("unknown output format %q (want yaml or json)", format)
	}
	m := manifestNode(&lb.Manifest)
	if format == JSON {
		AddPair(m, "entries", seqOf(lb.Entries, entryNode))
		return encode(m, format)
	}
	// yaml.v3's emitter slows down and allocates more with every event of a
	// document, so each entry is encoded on its own and indented under
	// entries: (a uniform indent keeps every block scalar's meaning, and is
	// the indentation yaml.v3 gives a whole document).
	var out []byte
	if len(m.Content) > 0 {
		b, err := encode(m, format)
		if err != nil {
			return nil, err
		}
		out = b
	}
	if len(lb.Entries) == 0 {
		return append(out, "entries: []\n"...), nil
	}
	out = append(out, "entries:\n"...)
	for _, e := range lb.Entries {
		b, err := encode(entryNode(e), format)
		if err != nil {
			return nil, err
		}
		for i, line := range bytes.SplitAfter(b, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			switch {
			case i == 0:
				out = append(out, "  - "...)
			case len(line) > 1:
				out = append(out, "    "...)
			}
			out = append(out, line...)
		}
	}
	return out, nil
}

// EncodeManifest writes lorebook.yaml of a folder lorebook (no entries).
func EncodeManifest(m *schema.Manifest, format string) ([]byte, error) {
	return encode(manifestNode(m), format)
}

// EncodeEntry writes one entry file of a folder lorebook.
func EncodeEntry(e *schema.Entry, format string) ([]byte, error) {
	return encode(entryNode(e), format)
}

// encode writes a built tree in lore's layout: the same styles fmt imposes,
// YAML indented by 2, JSON by 2 spaces.
func encode(n *yaml.Node, format string) ([]byte, error) {
	switch format {
	case JSON:
		var b bytes.Buffer
		WriteJSON(&b, n, "  ")
		b.WriteByte('\n')
		return b.Bytes(), nil
	case YAML, "":
		styleTree(n, "")
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(n); err != nil {
			return nil, err
		}
		if err := enc.Close(); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	return nil, fmt.Errorf("unknown output format %q (want yaml or json)", format)
}

// keywordSeq is the texts of keywords as a sequence.
func keywordSeq(ks []schema.Keyword) *yaml.Node {
	return seqOf(ks, func(k schema.Keyword) *yaml.Node { return StrNode(k.Text) })
}

// flowMapping is a mapping written on one line, {a: 1, b: 2}: a condition, a
// folder, the budget shares. fmt keeps a mapping's style as written.
func flowMapping() *yaml.Node {
	m := Mapping()
	m.Style = yaml.FlowStyle
	return m
}

// entryNode is e in lore's shape, defaults left out, keys in entryKeyOrder.
func entryNode(e *schema.Entry) *yaml.Node {
	m := Mapping()
	AddPair(m, "id", StrNode(e.ID))
	if e.Name != "" && e.Name != e.ID {
		AddPair(m, "name", StrNode(e.Name))
	}
	AddPair(m, "content", StrNode(e.Content))
	if e.Role != "" && e.Role != "character" {
		AddPair(m, "role", StrNode(e.Role))
	}
	if e.APIRole != "" && e.APIRole != "system" {
		AddPair(m, "apiRole", StrNode(e.APIRole))
	}
	AddPair(m, "section", StrNode(e.Section))
	if e.Position != 0 {
		AddPair(m, "position", intNode(e.Position))
	}
	if !e.Enabled {
		AddPair(m, "enabled", boolNode(false))
	}
	if e.AlwaysSend != schema.DefaultAlwaysSend(e.Section) {
		AddPair(m, "alwaysSend", boolNode(e.AlwaysSend))
	}
	if len(e.Keywords) > 0 {
		AddPair(m, "keywords", keywordSeq(e.Keywords))
	}
	if len(e.Conditions) > 0 {
		AddPair(m, "conditions", seqOf(e.Conditions, func(c schema.Condition) *yaml.Node {
			cm := flowMapping()
			AddPair(cm, "variableId", StrNode(c.VariableID))
			AddPair(cm, "operator", StrNode(c.Operator))
			AddPair(cm, "value", ValueNode(c.Value))
			return cm
		}))
	}
	if e.ConditionLogic != "" && e.ConditionLogic != "all" {
		AddPair(m, "conditionLogic", StrNode(e.ConditionLogic))
	}
	if e.Depth != nil {
		AddPair(m, "depth", intNode(*e.Depth))
	}
	if e.MatchWholeWords {
		AddPair(m, "matchWholeWords", boolNode(true))
	}
	if len(e.SecondaryKeywords) > 0 {
		AddPair(m, "secondaryKeywords", keywordSeq(e.SecondaryKeywords))
	}
	if e.SecondaryKeywordLogic != "" && e.SecondaryKeywordLogic != schema.AndAny {
		AddPair(m, "secondaryKeywordLogic", StrNode(e.SecondaryKeywordLogic))
	}
	if e.PreventRecursion {
		AddPair(m, "preventRecursion", boolNode(true))
	}
	if e.ExcludeRecursion {
		AddPair(m, "excludeRecursion", boolNode(true))
	}
	if len(e.Tags) > 0 {
		AddPair(m, "tags", seqOf(e.Tags, StrNode))
	}
	AddStr(m, "folderId", e.FolderID)
	if len(e.Lint.Ignore) > 0 || e.Lint.Reason != "" {
		lm := Mapping()
		if len(e.Lint.Ignore) > 0 {
			AddPair(lm, "ignore", keywordSeq(e.Lint.Ignore))
		}
		AddStr(lm, "reason", e.Lint.Reason)
		AddPair(m, "lint", lm)
	}
	if len(e.Extensions) > 0 {
		AddPair(m, "extensions", ValueNode(e.Extensions))
	}
	reorder(m, entryKeyOrder, "")
	return m
}

// manifestNode is mf in lore's shape, keys in manifestKeyOrder.
func manifestNode(mf *schema.Manifest) *yaml.Node {
	m := Mapping()
	AddStr(m, "name", mf.Name)
	AddStr(m, "description", mf.Description)
	AddStr(m, "character", mf.Character)
	if s := settingsNode(mf.Settings); s != nil {
		AddPair(m, "settings", s)
	}
	if len(mf.Variables) > 0 {
		AddPair(m, "variables", seqOf(mf.Variables, func(v schema.Variable) *yaml.Node {
			vm := Mapping()
			AddPair(vm, "id", StrNode(v.ID))
			AddStr(vm, "type", v.Type)
			if v.Default != nil || v.Fields["default"] != (schema.Pos{}) {
				AddPair(vm, "default", ValueNode(v.Default))
			}
			AddStr(vm, "description", v.Description)
			return vm
		}))
	}
	if p := mf.Persona; p != nil {
		pm := Mapping()
		AddStr(pm, "name", p.Name)
		AddStr(pm, "appearance", p.Appearance)
		AddStr(pm, "backstory", p.Backstory)
		AddPair(m, "persona", pm)
	}
	AddStr(m, "format", mf.Format)
	if len(mf.Presets) > 0 {
		AddPair(m, "presets", keywordSeq(mf.Presets))
	}
	if len(mf.Transforms) > 0 {
		AddPair(m, "transforms", seqOf(mf.Transforms, func(t schema.Transform) *yaml.Node {
			tm := Mapping()
			AddPair(tm, "pattern", StrNode(t.Pattern))
			AddPair(tm, "replace", StrNode(t.Replace))
			if t.MinDepth != nil {
				AddPair(tm, "minDepth", intNode(*t.MinDepth))
			}
			if t.MaxDepth != nil {
				AddPair(tm, "maxDepth", intNode(*t.MaxDepth))
			}
			if len(t.Roles) > 0 {
				roles := seqOf(t.Roles, StrNode)
				roles.Style = yaml.FlowStyle
				AddPair(tm, "roles", roles)
			}
			return tm
		}))
	}
	if len(mf.Folders) > 0 {
		AddPair(m, "folders", seqOf(mf.Folders, func(f schema.Folder) *yaml.Node {
			fm := flowMapping()
			AddPair(fm, "id", StrNode(f.ID))
			if f.Name != "" && f.Name != f.ID {
				AddPair(fm, "name", StrNode(f.Name))
			}
			return fm
		}))
	}
	if len(mf.Extensions) > 0 {
		AddPair(m, "extensions", ValueNode(mf.Extensions))
	}
	reorder(m, manifestKeyOrder, "entries")
	return m
}

func settingsNode(s schema.Settings) *yaml.Node {
	d := schema.DefaultSettings()
	m := Mapping()
	if s.ContextTokens != d.ContextTokens {
		AddPair(m, "contextTokens", intNode(s.ContextTokens))
	}
	if s.ResponseReserve != d.ResponseReserve {
		AddPair(m, "responseReserve", intNode(s.ResponseReserve))
	}
	if s.Tokenizer != "" && s.Tokenizer != d.Tokenizer {
		AddPair(m, "tokenizer", StrNode(s.Tokenizer))
	}
	if s.RequiredCap != d.RequiredCap {
		AddPair(m, "requiredCap", floatNode(s.RequiredCap))
	}
	if s.Shares != d.Shares {
		sm := flowMapping()
		AddPair(sm, "cards", floatNode(s.Shares.Cards))
		AddPair(sm, "history", floatNode(s.Shares.History))
		AddPair(sm, "memory", floatNode(s.Shares.Memory))
		AddPair(m, "shares", sm)
	}
	if s.RecursionLimit != d.RecursionLimit {
		AddPair(m, "recursionLimit", intNode(s.RecursionLimit))
	}
	if s.Engine != "" {
		AddPair(m, "engine", StrNode(s.Engine))
	}
	for _, name := range []string{"yumina", "sillytavern"} {
		if obj, ok := s.Engines[name]; ok {
			AddPair(m, name, ValueNode(obj))
		}
	}
	if len(m.Content) == 0 {
		return nil
	}
	return m
}
