package lsp

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/lorekit/lore/schema"
)

// fieldInfo is what completion knows of a field, read from lore's JSON Schema.
type fieldInfo struct {
	name, doc string
	enum      []string
}

type schemaFields struct {
	entry, condition, manifest []fieldInfo
	enums                      map[string][]string // by field name
}

var (
	fieldsOnce sync.Once
	fields     schemaFields
)

// loadFields reads the entry and lorebook schemas' properties (and the
// condition's) once: completion offers what the schema allows, so the two
// never disagree.
func loadFields() *schemaFields {
	fieldsOnce.Do(func() {
		fields.enums = map[string][]string{}
		type prop struct {
			Description string `json:"description"`
			Enum        []any  `json:"enum"`
		}
		type obj struct {
			Properties map[string]prop `json:"properties"`
			Defs       map[string]obj  `json:"$defs"`
		}
		list := func(o obj) []fieldInfo {
			var out []fieldInfo
			for name, p := range o.Properties {
				if strings.HasPrefix(name, "$") {
					continue
				}
				fi := fieldInfo{name: name, doc: p.Description}
				for _, v := range p.Enum {
					if s, ok := v.(string); ok {
						fi.enum = append(fi.enum, s)
					}
				}
				if len(fi.enum) > 0 {
					fields.enums[name] = fi.enum
				}
				out = append(out, fi)
			}
			sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
			return out
		}
		var e, m obj
		if b, err := schema.SchemaJSON("entry"); err == nil && json.Unmarshal(b, &e) == nil {
			fields.entry = list(e)
			fields.condition = list(e.Defs["condition"])
		}
		if b, err := schema.SchemaJSON("lorebook"); err == nil && json.Unmarshal(b, &m) == nil {
			fields.manifest = list(m)
		}
	})
	return &fields
}

var (
	keyTyped    = regexp.MustCompile(`^\s*(?:-\s+)?"?([A-Za-z]*)$`)
	valueTyped  = regexp.MustCompile(`"?([A-Za-z]+)"?\s*:\s*["']?([\w-]*)$`)
	getvarTyped = regexp.MustCompile(`(?i)\{\{getvar::([\w-]*)$`)
	flowKey     = regexp.MustCompile(`[{,]\s*"?([A-Za-z]*)$`)
)

// completion offers, at a position of file: variable ids after
// {{getvar:: and as a condition's variableId; a field's enum values after
// its key; field names where a key is typed (a condition's inside
// conditions, the manifest's in a manifest).
func (a *analysis) completion(file string, t *text, p protocol.Position) []protocol.CompletionItem {
	f := loadFields()
	line := t.line(int(p.Line))
	before := string([]rune(line)[:min(runeCol(line, p.Character)-1, len([]rune(line)))])
	var items []protocol.CompletionItem
	add := func(label string, kind protocol.CompletionItemKind, detail, doc string) {
		k := kind
		it := protocol.CompletionItem{Label: label, Kind: &k}
		if detail != "" {
			it.Detail = &detail
		}
		if doc != "" {
			it.Documentation = protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: doc}
		}
		items = append(items, it)
	}
	if getvarTyped.MatchString(before) {
		for _, id := range a.variableIDs() {
			add(id, protocol.CompletionItemKindVariable, "variable", "")
		}
		return items
	}
	if m := valueTyped.FindStringSubmatch(before); m != nil {
		key := m[1]
		if key == "variableId" {
			for _, id := range a.variableIDs() {
				add(id, protocol.CompletionItemKindVariable, "variable", "")
			}
			return items
		}
		for _, v := range f.enums[key] {
			add(v, protocol.CompletionItemKindEnumMember, key, "")
		}
		return items
	}
	var list []fieldInfo
	entryKeys := false
	switch {
	case flowKey.MatchString(before) && strings.Contains(before, "{"), a.inConditions(t, int(p.Line)):
		list = f.condition
	case contains(manifestNames, filepath.Base(file)):
		list = f.manifest
	case keyTyped.MatchString(before):
		list, entryKeys = f.entry, true
		if a.book != nil && a.book.Format == "lore" && !strings.HasPrefix(strings.TrimSpace(before), "-") && leading(line) == 0 && file == a.path {
			list = append(append([]fieldInfo(nil), f.manifest...), f.entry...)
		}
	default:
		return nil
	}
	// Keys the entry under the cursor already has are not offered again.
	var has map[string]bool
	if e := a.entryAt(file, int(p.Line)+1); e != nil && entryKeys {
		has = map[string]bool{}
		for k, at := range e.Fields {
			if at.Line != int(p.Line)+1 {
				has[k] = true
			}
		}
	}
	for _, fi := range list {
		if !has[fi.name] {
			add(fi.name, protocol.CompletionItemKindField, "field", fi.doc)
		}
	}
	return items
}

func leading(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// inConditions says the line is inside a conditions: list: the nearest
// line above it indented less is `conditions:` (or an item of it).
func (a *analysis) inConditions(t *text, l int) bool {
	ind := leading(t.line(l))
	for i := l - 1; i >= 0 && ind > 0; i-- {
		s := t.line(i)
		if strings.TrimSpace(s) == "" {
			continue
		}
		if li := leading(s); li < ind || (li == ind && strings.HasPrefix(strings.TrimSpace(s), "conditions:")) {
			return strings.HasPrefix(strings.TrimSpace(s), "conditions:") || strings.HasPrefix(strings.TrimSpace(s), "- variableId") && li < ind
		}
	}
	return false
}

// variableIDs are the manifest's variables and the variables file's, sorted.
func (a *analysis) variableIDs() []string {
	seen := map[string]bool{}
	if a.book != nil {
		for _, v := range a.book.Manifest.Variables {
			seen[v.ID] = true
		}
	}
	if a.vars != nil {
		for id := range a.vars.Values {
			seen[id] = true
		}
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
