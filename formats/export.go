package formats

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// stTemplate is SillyTavern's new-entry template (world-info.js
// newWorldInfoEntryDefinition), in its order: every field ST writes, with its
// default, so an exported file looks like one ST saved.
var stTemplate = []struct {
	key string
	def any
}{
	{"uid", 0.0}, {"key", []any{}}, {"keysecondary", []any{}}, {"comment", ""}, {"content", ""},
	{"constant", false}, {"vectorized", false}, {"selective", true}, {"selectiveLogic", 0.0},
	{"addMemo", false}, {"order", 100.0}, {"position", 0.0}, {"disable", false},
	{"ignoreBudget", false}, {"excludeRecursion", false}, {"preventRecursion", false},
	{"matchPersonaDescription", false}, {"matchCharacterDescription", false},
	{"matchCharacterPersonality", false}, {"matchCharacterDepthPrompt", false},
	{"matchScenario", false}, {"matchCreatorNotes", false}, {"delayUntilRecursion", 0.0},
	{"probability", 100.0}, {"useProbability", true}, {"depth", 4.0}, {"outletName", ""},
	{"group", ""}, {"groupOverride", false}, {"groupWeight", 100.0}, {"scanDepth", nil},
	{"caseSensitive", nil}, {"matchWholeWords", nil}, {"useGroupScoring", nil},
	{"automationId", ""}, {"role", 0.0}, {"sticky", nil}, {"cooldown", nil}, {"delay", nil},
	{"triggers", []any{}}, {"displayIndex", 0.0},
}

// cardOrigin returns the card format an entry came from and its kept fields.
func cardOrigin(e *schema.Entry) (string, map[string]any) {
	for _, f := range []string{FormatCardV3, FormatCardV2, FormatLorebookV3} {
		if m, ok := e.Extensions[f].(map[string]any); ok {
			return f, m
		}
	}
	return "", nil
}

// cardField is the card field an entry was made from ("description"…), or "".
func cardField(e *schema.Entry) string {
	_, m := cardOrigin(e)
	s, _ := m["field"].(string)
	return s
}

func snakeToCamel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func camelToSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// stFields is the SillyTavern entry for e: the fields kept at import
// (extensions.sillytavern, or a card entry's extensions), overlaid with
// everything lore's model says. The rules are the inverse of mapST and are
// documented in docs/formats.md.
func stFields(e *schema.Entry) map[string]any {
	st := map[string]any{}
	if m, ok := e.Extensions[FormatSillyTavern].(map[string]any); ok {
		for k, v := range m {
			st[k] = v
		}
	} else if _, card := cardOrigin(e); card != nil {
		if x, ok := card["extensions"].(map[string]any); ok {
			for k, v := range x {
				st[snakeToCamel(k)] = v
			}
		}
		if id, ok := card["id"]; ok {
			st["uid"] = id
		}
		for _, k := range []string{"selective", "case_sensitive"} {
			if v, ok := card[k]; ok {
				st[snakeToCamel(k)] = v
			}
		}
		if _, ok := st["position"].(float64); !ok {
			if s, _ := card["position"].(string); strings.HasPrefix(s, "after") {
				st["position"] = float64(stAfterChar)
			} else if s != "" {
				st["position"] = float64(stBeforeChar)
			}
		}
		if v, ok := card["comment"]; ok {
			st["comment"] = v
		}
		if v, ok := card["content"]; ok {
			st["content"] = v
		}
	}
	keptPos := -1
	if p, ok := st["position"].(float64); ok {
		keptPos = int(p)
	}
	st["key"] = anyStrings(keywordTexts(e.Keywords))
	if len(e.SecondaryKeywords) > 0 {
		st["keysecondary"] = anyStrings(keywordTexts(e.SecondaryKeywords))
		st["selective"] = true
		for i, l := range stLogic {
			if l == e.SecondaryKeywordLogic {
				st["selectiveLogic"] = float64(i)
			}
		}
	} else if _, ok := st["keysecondary"]; !ok {
		st["keysecondary"] = []any{}
	}
	if c, kept := st["comment"].(string); !(kept && c == "" && e.Name == e.ID) {
		st["comment"] = e.Name
	}
	st["content"] = originalContent(st, e.Content)
	delete(st, "lineEndings") // lore's note, not a SillyTavern field
	st["constant"] = e.AlwaysSend
	st["order"] = float64(e.Position)
	st["excludeRecursion"] = e.ExcludeRecursion
	st["preventRecursion"] = e.PreventRecursion
	if e.MatchWholeWords || st["matchWholeWords"] != nil {
		st["matchWholeWords"] = e.MatchWholeWords
	} else if _, ok := st["matchWholeWords"]; !ok {
		st["matchWholeWords"] = false
	}
	roleIndex := func() any {
		if r, kept := st["role"]; kept && r == nil && e.APIRole == "system" {
			return nil
		}
		for i, r := range stRoles {
			if r == e.APIRole {
				return float64(i)
			}
		}
		return 0.0
	}
	pos := keptPos
	switch e.Section {
	case schema.SectionChatHistory:
		if e.Depth != nil {
			pos = stAtDepth
			d := *e.Depth
			if d < 0 {
				d = 0
			}
			st["depth"] = float64(d + 1)
			st["role"] = roleIndex()
		} else if pos != stBeforeChar && pos != stAfterChar && pos != stOutlet {
			pos = stAfterChar // the triggered block follows the character definitions
		}
	case schema.SectionPostHistory:
		d, _ := st["depth"].(float64)
		switch {
		case pos == stANTop || pos == stANBottom:
		case pos == stAtDepth && d == 0:
			st["role"] = roleIndex()
		default:
			// After the newest message, as post-history is.
			pos = stAtDepth
			st["depth"] = 0.0
			st["role"] = roleIndex()
		}
	case schema.SectionExamples:
		if pos != stBeforeExample && pos != stAfterExample {
			pos = stBeforeExample
		}
	default: // system-presets: sent before the character definitions
		if pos != stBeforeChar && pos != stAfterChar {
			pos = stBeforeChar
		}
	}
	st["position"] = float64(pos)
	if pos == stOutlet {
		if _, ok := st["disable"]; !ok {
			st["disable"] = !e.Enabled
		}
	} else {
		st["disable"] = !e.Enabled
	}
	for _, t := range stTemplate {
		if _, ok := st[t.key]; !ok {
			st[t.key] = t.def
		}
	}
	return st
}

func anyStrings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// orderedST is st as a mapping in ST's template order, other keys after, sorted.
func orderedST(st map[string]any) *yaml.Node {
	m := canon.Mapping()
	seen := map[string]bool{}
	for _, t := range stTemplate {
		if v, ok := st[t.key]; ok {
			canon.AddPair(m, t.key, canon.ValueNode(v))
			seen[t.key] = true
		}
	}
	for _, k := range sortedKeys(st) {
		if !seen[k] {
			canon.AddPair(m, k, canon.ValueNode(st[k]))
		}
	}
	return m
}

// ExportSillyTavern writes lb as a SillyTavern world-info file. Entries made
// from a card's own fields (description, first message…) are not world info
// and are left out, with a note.
func ExportSillyTavern(lb *schema.Lorebook) ([]byte, []diag.Diagnostic) {
	var ds []diag.Diagnostic
	root := canon.Mapping()
	canon.AddStr(root, "name", lb.Manifest.Name)
	canon.AddStr(root, "description", lb.Manifest.Description)
	if x, ok := lb.Manifest.Extensions[FormatSillyTavern].(map[string]any); ok {
		for _, k := range sortedKeys(x) {
			if k != "name" && k != "description" && k != "entries" {
				canon.AddPair(root, k, canon.ValueNode(x[k]))
			}
		}
	}
	ents := canon.Mapping()
	used := map[string]bool{}
	var pending []map[string]any
	skipped := 0
	greetings, conditioned := 0, 0
	for _, e := range lb.Entries {
		if cardField(e) != "" {
			skipped++
			continue
		}
		if e.Role == "greeting" {
			greetings++
			continue
		}
		if len(e.Conditions) > 0 {
			conditioned++
		}
		st := stFields(e)
		if u := uidString(st["uid"]); u != "" && !used[u] {
			used[u] = true
		} else {
			delete(st, "uid")
		}
		pending = append(pending, st)
	}
	next := 0
	for i, st := range pending {
		if _, ok := st["uid"]; !ok {
			for used[strconv.Itoa(next)] {
				next++
			}
			used[strconv.Itoa(next)] = true
			st["uid"] = float64(next)
		}
		if _, ok := st["displayIndex"]; !ok {
			st["displayIndex"] = float64(i)
		}
		canon.AddPair(ents, uidString(st["uid"]), orderedST(st))
	}
	canon.AddPair(root, "entries", ents)
	if skipped > 0 {
		ds = append(ds, diag.New(diag.Pos{File: lb.Path}, diag.Info, "export",
			"%d entries made from the card's own fields (description, first message…) are not world info: left out (export --to card-v3 keeps them)", skipped))
	}
	if greetings > 0 {
		ds = append(ds, diag.New(diag.Pos{File: lb.Path}, diag.Info, "export",
			"%d greeting entries are the chat's opening message, not world info: left out (export --to card-v3 writes them as first_mes)", greetings))
	}
	return exportJSON(root, ds, lb.Path, conditioned, "SillyTavern")
}

// exportJSON ends an export to another tool: a warning when entries had
// conditions (which the tool has no place for), and root as JSON indented
// with 4 spaces, as SillyTavern writes its files.
func exportJSON(root *yaml.Node, ds []diag.Diagnostic, file string, conditioned int, tool string) ([]byte, []diag.Diagnostic) {
	if conditioned > 0 {
		ds = append(ds, diag.New(diag.Pos{File: file}, diag.Warning, "export",
			"%d entries have conditions on variables, which %s has no place for: they are exported without them and will fire on keywords alone", conditioned, tool))
	}
	var b bytes.Buffer
	canon.WriteJSON(&b, root, "    ")
	b.WriteByte('\n')
	return b.Bytes(), ds
}

func uidString(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	}
	return ""
}

// ExportCardV3 writes lb as a Character Card V3 JSON: the card's own fields
// from the entries made from them, every other entry in character_book.
func ExportCardV3(lb *schema.Lorebook) ([]byte, []diag.Diagnostic) {
	mf := &lb.Manifest
	var cardExt map[string]any
	for _, f := range []string{FormatCardV3, FormatCardV2, FormatLorebookV3} {
		if x, ok := mf.Extensions[f].(map[string]any); ok {
			cardExt = x
			break
		}
	}
	data := map[string]any{}
	for k, v := range cardExt {
		if k != "character_book" && k != "spec" && k != "spec_version" {
			data[k] = v
		}
	}
	name := mf.Character
	if name == "" {
		name = mf.Name
	}
	data["name"] = name
	for _, cf := range cardFields {
		data[cf.field] = ""
	}
	for k, def := range map[string]any{"creator_notes": "", "alternate_greetings": []any{}, "tags": []any{},
		"creator": "", "character_version": "", "extensions": map[string]any{}, "group_only_greetings": []any{}} {
		if _, ok := data[k]; !ok {
			data[k] = def
		}
	}
	book := map[string]any{}
	if b, ok := cardExt["character_book"].(map[string]any); ok {
		for k, v := range b {
			book[k] = v
		}
	} else if x, ok := mf.Extensions[FormatSillyTavern].(map[string]any); ok {
		for _, k := range []string{"scan_depth", "token_budget", "recursive_scanning", "extensions"} {
			if v, ok := x[k]; ok {
				book[k] = v
			}
		}
	}
	book["name"] = mf.Name
	if mf.Description != "" {
		book["description"] = mf.Description
	}
	if _, ok := book["extensions"]; !ok {
		book["extensions"] = map[string]any{}
	}
	var entries []any
	conditioned := 0
	for i, e := range lb.Entries {
		if f := cardField(e); f == "" && e.Role == "greeting" {
			// A lore greeting is the card's first message (more: alternates).
			if s, _ := data["first_mes"].(string); s == "" {
				data["first_mes"] = e.Content
			} else {
				alt, _ := data["alternate_greetings"].([]any)
				data["alternate_greetings"] = append(alt, e.Content)
			}
			continue
		}
		if len(e.Conditions) > 0 {
			conditioned++
		}
		if f := cardField(e); f != "" {
			_, kept := cardOrigin(e)
			text := originalContent(kept, e.Content)
			if s, _ := data[f].(string); s != "" {
				data[f] = s + "\n\n" + text
			} else {
				data[f] = text
			}
			continue
		}
		entries = append(entries, cardEntry(e, i))
	}
	if entries == nil {
		entries = []any{}
	}
	book["entries"] = entries
	data["character_book"] = book
	root := canon.Mapping()
	canon.AddPair(root, "spec", canon.StrNode("chara_card_v3"))
	canon.AddPair(root, "spec_version", canon.StrNode("3.0"))
	canon.AddPair(root, "data", canon.ValueNode(data))
	return exportJSON(root, nil, lb.Path, conditioned, "a character card")
}

// stToCard names the card-extension key ST's own card export uses for an ST
// field; the ones it leaves in camelCase are listed as themselves.
func stToCard(k string) string {
	switch k {
	case "selectiveLogic", "useProbability", "probability", "depth", "position", "role", "group",
		"vectorized", "sticky", "cooldown", "delay", "triggers":
		return k
	}
	return camelToSnake(k)
}

func cardEntry(e *schema.Entry, i int) map[string]any {
	st := stFields(e)
	format, kept := cardOrigin(e)
	out := map[string]any{}
	ext := map[string]any{}
	if kept != nil {
		for k, v := range kept {
			if k != "decorators" && k != "field" && k != "content" && k != "lineEndings" {
				out[k] = v
			}
		}
		if x, ok := out["extensions"].(map[string]any); ok {
			for k, v := range x {
				ext[k] = v
			}
		}
	}
	// Fields lore maps: always written. ST's other fields: written when the
	// entry came from ST (a card entry keeps its own extensions as they were).
	mapped := map[string]bool{"position": true, "depth": true, "role": true, "selectiveLogic": true,
		"excludeRecursion": true, "preventRecursion": true, "matchWholeWords": true}
	skip := map[string]bool{"uid": true, "key": true, "keysecondary": true, "comment": true, "content": true,
		"constant": true, "selective": true, "order": true, "disable": true}
	for k, v := range st {
		if skip[k] {
			continue
		}
		ck := stToCard(k)
		if kept == nil || mapped[k] {
			if _, had := ext[ck]; had || kept == nil || !isDefaultST(k, v) {
				ext[ck] = v
			}
		}
	}
	content, _ := st["content"].(string)
	if kept != nil {
		content = originalContent(kept, content)
	}
	if format != "" {
		if ds, ok := kept["decorators"].([]any); ok && len(ds) > 0 {
			var lines []string
			for _, d := range ds {
				lines = append(lines, fmt.Sprint(d))
			}
			content = strings.Join(lines, "\n") + "\n" + content
		}
	}
	out["keys"] = st["key"]
	out["secondary_keys"] = st["keysecondary"]
	out["content"] = content
	out["comment"] = st["comment"]
	out["enabled"] = e.Enabled
	out["constant"] = e.AlwaysSend
	out["selective"] = st["selective"]
	out["insertion_order"] = float64(e.Position)
	if _, ok := out["use_regex"]; !ok {
		out["use_regex"] = false
	}
	if _, ok := out["id"]; !ok {
		if u, ok := st["uid"].(float64); ok {
			out["id"] = u
		} else {
			out["id"] = float64(i)
		}
	}
	before := st["position"] == float64(stBeforeChar)
	// Keep the card's own spelling ("before_char_defs" occurs) when it still says the same.
	if s, ok := out["position"].(string); !ok || strings.HasPrefix(s, "before") != before {
		if before {
			out["position"] = "before_char"
		} else {
			out["position"] = "after_char"
		}
	}
	out["extensions"] = ext
	return out
}

// isDefaultST reports a value that changes nothing in ST (so a card entry
// that never had it need not grow it).
func isDefaultST(k string, v any) bool {
	for _, t := range stTemplate {
		if t.key == k {
			if t.def == nil { // "use the global setting": false and 0 change nothing either
				return v == nil || v == false || v == 0.0
			}
			return fmt.Sprint(t.def) == fmt.Sprint(v)
		}
	}
	return false
}

func keywordTexts(ks []schema.Keyword) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Text
	}
	return out
}
