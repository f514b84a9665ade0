package formats

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/schema"
)

// v3OnlyData are the card fields V3 added to V2: a V2 card has no place
// for them (the loss report names the ones a book uses).
var v3OnlyData = []string{"nickname", "creator_notes_multilingual", "source", "group_only_greetings",
	"creation_date", "modification_date", "assets"}

// cardKept is the card the lorebook came from, as kept under the manifest's
// extensions (data fields, the book's own fields under character_book, the
// fields outside data under topLevel), or nil.
func cardKept(mf *schema.Manifest) map[string]any {
	for _, f := range []string{FormatCardV3, FormatCardV2, FormatLorebookV3} {
		if x, ok := mf.Extensions[f].(map[string]any); ok {
			return x
		}
	}
	return nil
}

// exportCard writes lb as a Character Card (format card-v2 or card-v3): the
// card's own fields from the entries made from them, the first greeting as
// first_mes, every world-info entry in character_book, and the V1 fields
// mirrored at the top level for readers that only know V1.
func exportCard(lb *schema.Lorebook, format string) []byte {
	data := cardData(lb, format)
	root := newObject()
	for _, k := range []string{"name", "description", "personality", "scenario", "first_mes", "mes_example"} {
		root.set(k, data[k])
	}
	top, _ := cardKept(&lb.Manifest)["topLevel"].(map[string]any)
	ext, _ := data["extensions"].(map[string]any)
	root.set("creatorcomment", data["creator_notes"])
	root.set("avatar", firstOf(top["avatar"], "none"))
	root.set("talkativeness", firstOf(top["talkativeness"], ext["talkativeness"], "0.5"))
	root.set("fav", firstOf(top["fav"], ext["fav"], false))
	root.set("tags", data["tags"])
	if format == FormatCardV2 {
		root.set("spec", "chara_card_v2")
		root.set("spec_version", "2.0")
	} else {
		root.set("spec", "chara_card_v3")
		root.set("spec_version", "3.0")
	}
	root.set("data", data)
	root.set("create_date", firstOf(top["create_date"], ""))
	root.setAll(top)
	return marshalJSON(root, "    ")
}

// firstOf is the first of vs that is set (not nil).
func firstOf(vs ...any) any {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

// cardData is the card's data object.
func cardData(lb *schema.Lorebook, format string) map[string]any {
	mf := &lb.Manifest
	kept := cardKept(mf)
	data := map[string]any{}
	for k, v := range kept {
		if k != "character_book" && k != "spec" && k != "spec_version" && k != "topLevel" && k != PNGImageKey {
			data[k] = v
		}
	}
	if format == FormatCardV2 {
		for _, k := range v3OnlyData {
			delete(data, k)
		}
	}
	data["name"] = firstOf(nonEmpty(mf.Character), nonEmpty(mf.Name), "")
	for _, cf := range cardFields {
		data[cf.field] = ""
	}
	defaults := map[string]any{"creator_notes": "", "alternate_greetings": []any{}, "tags": []any{},
		"creator": "", "character_version": "", "extensions": map[string]any{}}
	if format != FormatCardV2 {
		defaults["group_only_greetings"] = []any{}
	}
	for k, def := range defaults {
		if _, ok := data[k]; !ok {
			data[k] = def
		}
	}
	for _, e := range lb.Entries {
		switch f := cardField(e); {
		case f != "":
			_, own := cardOrigin(e)
			text := originalContent(own, e.Content)
			if s, _ := data[f].(string); s != "" {
				text = s + "\n\n" + text // several entries of one field: one text
			}
			data[f] = text
		case e.Role == "greeting":
			// A lore greeting is the card's first message (more: alternates).
			if s, _ := data["first_mes"].(string); s == "" {
				data["first_mes"] = e.Content
			} else {
				alt, _ := data["alternate_greetings"].([]any)
				data["alternate_greetings"] = append(append([]any{}, alt...), e.Content)
			}
		}
	}
	data["character_book"] = cardBook(lb, format)
	return data
}

func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// cardBook is the character_book of lb: the book fields it came with (or,
// from SillyTavern, the header fields a card book has), and every
// world-info entry.
func cardBook(lb *schema.Lorebook, format string) map[string]any {
	mf := &lb.Manifest
	book := map[string]any{}
	if b, ok := cardKept(mf)["character_book"].(map[string]any); ok {
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
	if mf.Settings.RecursionLimit == 0 {
		book["recursive_scanning"] = false
	} else if b, ok := book["recursive_scanning"].(bool); ok && !b {
		book["recursive_scanning"] = true // lore's setting was changed since
	}
	book["name"] = mf.Name
	if mf.Description != "" {
		book["description"] = mf.Description
	}
	if _, ok := book["extensions"]; !ok {
		book["extensions"] = map[string]any{}
	}
	entries := []any{}
	for i, e := range lb.Entries {
		if isWorldInfo(e) {
			entries = append(entries, cardEntry(e, i, format))
		}
	}
	book["entries"] = entries
	return book
}

// stToCard names the card-extension key ST's own card export uses for an ST
// field; the ones it leaves in camelCase are listed as themselves.
func stToCard(k string) string {
	if n, ok := stCardNames[k]; ok {
		return n
	}
	return cardExtName(k)
}

func cardExtName(k string) string {
	switch k {
	case "selectiveLogic", "useProbability", "probability", "depth", "position", "role", "group",
		"vectorized", "sticky", "cooldown", "delay", "triggers":
		return k
	}
	return camelToSnake(k)
}

// stCardNames is stToCard of every field of ST's template, worked out once:
// every entry of every export asks.
var stCardNames = func() map[string]string {
	m := make(map[string]string, len(stTemplate))
	for _, t := range stTemplate {
		m[t.key] = cardExtName(t.key)
	}
	return m
}()

// stCardMapped are the ST fields lore maps that live in a card entry's
// extensions; stCardTop are the ones a card entry holds as its own fields.
var (
	stCardMapped = map[string]bool{"position": true, "depth": true, "role": true, "selectiveLogic": true,
		"excludeRecursion": true, "preventRecursion": true, "matchWholeWords": true}
	stCardTop = map[string]bool{"uid": true, "key": true, "keysecondary": true, "comment": true, "content": true,
		"constant": true, "selective": true, "order": true, "disable": true}
)

// cardEntry is e as a character_book entry (index i in the lorebook):
// ST's card shape, its ST numbers in extensions as ST's own card export
// writes them. An entry that came from a card keeps its own fields and
// extensions, updated where lore changed a mapped value.
func cardEntry(e *schema.Entry, i int, format string) map[string]any {
	st := stFields(e)
	from, kept := cardOrigin(e)
	out := map[string]any{}
	ext := map[string]any{}
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
	for k, v := range st {
		if stCardTop[k] {
			continue
		}
		// Fields lore maps: always written. ST's other fields: written when
		// the entry came from ST (a card entry keeps its extensions as they were).
		ck := stToCard(k)
		if kept == nil || stCardMapped[k] {
			if _, had := ext[ck]; had || kept == nil || !isDefaultST(k, v) {
				ext[ck] = v
			}
		}
	}
	out["keys"] = st["key"]
	out["secondary_keys"] = st["keysecondary"]
	out["content"] = cardContent(st, kept, from, format)
	out["comment"] = st["comment"]
	out["enabled"] = st["disable"] != true
	out["constant"] = e.AlwaysSend
	out["selective"] = st["selective"]
	out["insertion_order"] = float64(e.Position)
	if format == FormatCardV2 {
		delete(out, "use_regex") // a V3 field
	} else if _, ok := out["use_regex"]; !ok {
		out["use_regex"] = false
	}
	if _, ok := out["id"]; !ok {
		out["id"] = cardEntryID(st, i)
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

// cardEntryID is the id of a card entry that had none: its ST uid, else
// its place in the lorebook.
func cardEntryID(st map[string]any, i int) any {
	if u, ok := st["uid"].(float64); ok {
		return u
	}
	return float64(i)
}

// cardContent is the entry's content as the card holds it: line ends as
// they came, and, in a V3 card, the @@decorators taken off at import back
// on top (a V2 card has no decorators: its readers would send them as text).
func cardContent(st, kept map[string]any, from, format string) string {
	content, _ := st["content"].(string) // line ends restored by stSetMapped
	ds, _ := kept["decorators"].([]any)
	if from == "" || format == FormatCardV2 || len(ds) == 0 {
		return content
	}
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = fmt.Sprint(d)
	}
	return strings.Join(lines, "\n") + "\n" + content
}

// isDefaultST reports a value that changes nothing in ST (so a card entry
// that never had it need not grow it).
func isDefaultST(k string, v any) bool {
	def, ok := stDefaults[k]
	switch {
	case !ok:
		return false
	case def == nil: // "use the global setting": false and 0 change nothing either
		return v == nil || v == false || v == 0.0
	}
	if list, isList := def.([]any); isList {
		got, _ := v.([]any)
		return len(list) == 0 && got != nil && len(got) == 0
	}
	return v == def
}

// stDefaults is stTemplate as a map.
var stDefaults = func() map[string]any {
	m := make(map[string]any, len(stTemplate))
	for _, t := range stTemplate {
		m[t.key] = t.def
	}
	return m
}()
