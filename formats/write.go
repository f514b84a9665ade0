package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/schema"
)

// Output formats of the writer.
const (
	YAML = "yaml"
	JSON = "json"
)

// EncodeLorebook writes lb as one lore file (manifest keys, then entries:)
// in YAML or JSON. Fields equal to their defaults are left out, keys follow
// SPEC §1's order, extensions come last. What it writes loads back through
// schema.Load to the same lorebook.
func EncodeLorebook(lb *schema.Lorebook, format string) ([]byte, error) {
	m := manifestNode(&lb.Manifest)
	if format == JSON {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range lb.Entries {
			seq.Content = append(seq.Content, EntryNode(e))
		}
		addPair(m, "entries", seq)
		return encode(m, format)
	}
	// yaml.v3's emitter slows down and allocates more with every event of a
	// document, so each entry is encoded on its own and indented under
	// entries: (a uniform indent keeps every block scalar's meaning).
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
		b, err := encode(EntryNode(e), format)
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
	return encode(EntryNode(e), format)
}

func encode(n *yaml.Node, format string) ([]byte, error) {
	switch format {
	case JSON:
		var b bytes.Buffer
		writeJSON(&b, n, "")
		b.WriteByte('\n')
		return b.Bytes(), nil
	case YAML, "":
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

func addPair(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

// addStr adds key: s when s is not empty: lore leaves empty texts out.
func addStr(m *yaml.Node, key, s string) {
	if s != "" {
		addPair(m, key, strNode(s))
	}
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

// strNode is a string scalar; multi-line text becomes a literal block (|-)
// so content reads as written. yaml.v3 mangles a few texts in block style
// (leading line breaks, only line breaks, tab-indented lines): each block is
// checked by reading it back, and falls back to a double-quoted string.
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.Contains(s, "\n") || strings.Contains(s, "\r") {
		n.Style = yaml.LiteralStyle
		if riskyBlock(s) && !blockRoundTrips(n) {
			n.Style = yaml.DoubleQuotedStyle
		}
	}
	return n
}

// riskyBlock: texts whose block form yaml.v3 has been seen to get wrong; only
// these pay for the read-back check (FuzzStrNode keeps the list honest).
func riskyBlock(s string) bool {
	return s == "" || strings.TrimSpace(s) == "" || strings.ContainsAny(s[:1], " \t\n\r") ||
		strings.Contains(s, "\r") || strings.Contains(s, "\n\t") || strings.Contains(s, "\n ") ||
		strings.ContainsFunc(s, func(r rune) bool {
			return r < 0x20 && r != '\n' || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff
		})
}

func blockRoundTrips(n *yaml.Node) bool {
	m := mapping()
	addPair(m, "k", n)
	b, err := yaml.Marshal(m)
	if err != nil {
		return false
	}
	var back map[string]string
	return yaml.Unmarshal(b, &back) == nil && back["k"] == n.Value
}

func intNode(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func floatNode(f float64) *yaml.Node {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(int64(f), 10)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'g', -1, 64)}
}

func nullNode() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"} }

// flowStrings is a list of short strings on one line: [a, b, c].
func flowStrings(ss []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, s := range ss {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s})
	}
	return n
}

// seqOf writes items as a block sequence, each through item.
func seqOf[T any](items []T, item func(T) *yaml.Node) *yaml.Node {
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: make([]*yaml.Node, 0, len(items))}
	for _, it := range items {
		seq.Content = append(seq.Content, item(it))
	}
	return seq
}

func keywordTexts(ks []schema.Keyword) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Text
	}
	return out
}

// EntryNode is e in lore's YAML shape, defaults left out.
func EntryNode(e *schema.Entry) *yaml.Node {
	m := mapping()
	addPair(m, "id", strNode(e.ID))
	if e.Name != "" && e.Name != e.ID {
		addPair(m, "name", strNode(e.Name))
	}
	addPair(m, "content", strNode(e.Content))
	if e.Role != "" && e.Role != "character" {
		addPair(m, "role", strNode(e.Role))
	}
	if e.APIRole != "" && e.APIRole != "system" {
		addPair(m, "apiRole", strNode(e.APIRole))
	}
	addPair(m, "section", strNode(e.Section))
	if e.Position != 0 {
		addPair(m, "position", intNode(e.Position))
	}
	if !e.Enabled {
		addPair(m, "enabled", boolNode(false))
	}
	if e.AlwaysSend != schema.DefaultAlwaysSend(e.Section) {
		addPair(m, "alwaysSend", boolNode(e.AlwaysSend))
	}
	if len(e.Keywords) > 0 {
		addPair(m, "keywords", flowStrings(keywordTexts(e.Keywords)))
	}
	if len(e.Conditions) > 0 {
		addPair(m, "conditions", seqOf(e.Conditions, func(c schema.Condition) *yaml.Node {
			cm := mapping()
			cm.Style = yaml.FlowStyle
			addPair(cm, "variableId", strNode(c.VariableID))
			addPair(cm, "operator", strNode(c.Operator))
			addPair(cm, "value", valueNode(c.Value, true))
			return cm
		}))
	}
	if e.ConditionLogic != "" && e.ConditionLogic != "all" {
		addPair(m, "conditionLogic", strNode(e.ConditionLogic))
	}
	if e.Depth != nil {
		addPair(m, "depth", intNode(*e.Depth))
	}
	if e.MatchWholeWords {
		addPair(m, "matchWholeWords", boolNode(true))
	}
	if len(e.SecondaryKeywords) > 0 {
		addPair(m, "secondaryKeywords", flowStrings(keywordTexts(e.SecondaryKeywords)))
	}
	if e.SecondaryKeywordLogic != "" && e.SecondaryKeywordLogic != schema.AndAny {
		addPair(m, "secondaryKeywordLogic", strNode(e.SecondaryKeywordLogic))
	}
	if e.PreventRecursion {
		addPair(m, "preventRecursion", boolNode(true))
	}
	if e.ExcludeRecursion {
		addPair(m, "excludeRecursion", boolNode(true))
	}
	if len(e.Tags) > 0 {
		addPair(m, "tags", flowStrings(e.Tags))
	}
	addStr(m, "folderId", e.FolderID)
	if len(e.Lint.Ignore) > 0 || e.Lint.Reason != "" {
		lm := mapping()
		if len(e.Lint.Ignore) > 0 {
			addPair(lm, "ignore", flowStrings(keywordTexts(e.Lint.Ignore)))
		}
		addStr(lm, "reason", e.Lint.Reason)
		addPair(m, "lint", lm)
	}
	if len(e.Extensions) > 0 {
		addPair(m, "extensions", valueNode(e.Extensions, false))
	}
	return m
}

func manifestNode(mf *schema.Manifest) *yaml.Node {
	m := mapping()
	addStr(m, "name", mf.Name)
	addStr(m, "description", mf.Description)
	addStr(m, "character", mf.Character)
	if s := settingsNode(mf.Settings); s != nil {
		addPair(m, "settings", s)
	}
	if len(mf.Variables) > 0 {
		addPair(m, "variables", seqOf(mf.Variables, func(v schema.Variable) *yaml.Node {
			vm := mapping()
			addPair(vm, "id", strNode(v.ID))
			addStr(vm, "type", v.Type)
			if v.Default != nil || v.Fields["default"] != (schema.Pos{}) {
				addPair(vm, "default", valueNode(v.Default, true))
			}
			addStr(vm, "description", v.Description)
			return vm
		}))
	}
	if p := mf.Persona; p != nil {
		pm := mapping()
		addStr(pm, "name", p.Name)
		addStr(pm, "appearance", p.Appearance)
		addStr(pm, "backstory", p.Backstory)
		addPair(m, "persona", pm)
	}
	addStr(m, "format", mf.Format)
	if len(mf.Presets) > 0 {
		addPair(m, "presets", flowStrings(keywordTexts(mf.Presets)))
	}
	if len(mf.Transforms) > 0 {
		addPair(m, "transforms", seqOf(mf.Transforms, func(t schema.Transform) *yaml.Node {
			tm := mapping()
			addPair(tm, "pattern", strNode(t.Pattern))
			addPair(tm, "replace", strNode(t.Replace))
			if t.MinDepth != nil {
				addPair(tm, "minDepth", intNode(*t.MinDepth))
			}
			if t.MaxDepth != nil {
				addPair(tm, "maxDepth", intNode(*t.MaxDepth))
			}
			if len(t.Roles) > 0 {
				addPair(tm, "roles", flowStrings(t.Roles))
			}
			return tm
		}))
	}
	if len(mf.Folders) > 0 {
		addPair(m, "folders", seqOf(mf.Folders, func(f schema.Folder) *yaml.Node {
			fm := mapping()
			fm.Style = yaml.FlowStyle
			addPair(fm, "id", strNode(f.ID))
			if f.Name != "" && f.Name != f.ID {
				addPair(fm, "name", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.Name})
			}
			return fm
		}))
	}
	if len(mf.Extensions) > 0 {
		addPair(m, "extensions", valueNode(mf.Extensions, false))
	}
	return m
}

func settingsNode(s schema.Settings) *yaml.Node {
	d := schema.DefaultSettings()
	m := mapping()
	if s.ContextTokens != d.ContextTokens {
		addPair(m, "contextTokens", intNode(s.ContextTokens))
	}
	if s.ResponseReserve != d.ResponseReserve {
		addPair(m, "responseReserve", intNode(s.ResponseReserve))
	}
	if s.Tokenizer != "" && s.Tokenizer != d.Tokenizer {
		addPair(m, "tokenizer", strNode(s.Tokenizer))
	}
	if s.RequiredCap != d.RequiredCap {
		addPair(m, "requiredCap", floatNode(s.RequiredCap))
	}
	if s.Shares != d.Shares {
		sm := mapping()
		sm.Style = yaml.FlowStyle
		addPair(sm, "cards", floatNode(s.Shares.Cards))
		addPair(sm, "history", floatNode(s.Shares.History))
		addPair(sm, "memory", floatNode(s.Shares.Memory))
		addPair(m, "shares", sm)
	}
	if s.RecursionLimit != d.RecursionLimit {
		addPair(m, "recursionLimit", intNode(s.RecursionLimit))
	}
	if s.Engine != "" {
		addPair(m, "engine", strNode(s.Engine))
	}
	for _, name := range []string{"yumina", "sillytavern"} {
		if obj, ok := s.Engines[name]; ok {
			addPair(m, name, valueNode(obj, false))
		}
	}
	if len(m.Content) == 0 {
		return nil
	}
	return m
}

// valueNode writes a plain value (string, float64, int, bool, nil, []any,
// map[string]any); map keys sorted so output never depends on map order.
// inFlow keeps strings out of block style (not allowed inside [ ] or { }).
func valueNode(v any, inFlow bool) *yaml.Node {
	switch x := v.(type) {
	case nil:
		return nullNode()
	case string:
		if inFlow {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x}
		}
		return strNode(x)
	case bool:
		return boolNode(x)
	case float64:
		return floatNode(x)
	case int:
		return intNode(x)
	case int64:
		return floatNode(float64(x))
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if len(x) == 0 {
			n.Style = yaml.FlowStyle
		}
		for _, c := range x {
			n.Content = append(n.Content, valueNode(c, inFlow))
		}
		return n
	case map[string]any:
		n := mapping()
		if len(x) == 0 {
			n.Style = yaml.FlowStyle
		}
		for _, k := range sortedKeys(x) {
			addPair(n, k, valueNode(x[k], inFlow))
		}
		return n
	case []string:
		return flowStrings(x)
	}
	// Anything else (a value a future model type adds): through JSON.
	var generic any
	if b, err := json.Marshal(v); err == nil && json.Unmarshal(b, &generic) == nil && reflect.TypeOf(generic) != reflect.TypeOf(v) {
		return valueNode(generic, inFlow)
	}
	return strNode(fmt.Sprint(v))
}

// writeJSON prints a node tree as indented JSON, keeping mapping order.
func writeJSON(b *bytes.Buffer, n *yaml.Node, indent string) { writeJSONStep(b, n, indent, "  ") }

func writeJSONScalar(b *bytes.Buffer, n *yaml.Node) {
	switch n.Tag {
	case "!!int", "!!float", "!!bool":
		b.WriteString(n.Value)
	case "!!null":
		b.WriteString("null")
	default:
		writeJSONString(b, n.Value)
	}
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}
