package formats

import (
	"strconv"
	"strings"

	"github.com/lorekit/lore/schema"
)

// cardSpec returns "card-v2", "card-v3", "lorebook-v3" or "" for root.
func cardSpec(root *jnode) string {
	spec, _ := root.get("spec").strOf()
	switch spec {
	case "chara_card_v2":
		return FormatCardV2
	case "chara_card_v3":
		return FormatCardV3
	case "lorebook_v3":
		return FormatLorebookV3
	}
	return ""
}

// cardFields are the card's own texts that become entries, in prompt order.
// Each entry remembers its field under extensions.<format>.field, so export
// can put it back.
var cardFields = []struct {
	field, id, name, section, role, apiRole string
	position                                int
}{
	{"system_prompt", "system-prompt", "System prompt", schema.SectionSystemPresets, "system", "system", 0},
	{"description", "description", "Description", schema.SectionSystemPresets, "character", "system", 1},
	{"personality", "personality", "Personality", schema.SectionSystemPresets, "personality", "system", 2},
	{"scenario", "scenario", "Scenario", schema.SectionSystemPresets, "scenario", "system", 3},
	{"first_mes", "first-message", "First message", schema.SectionSystemPresets, "greeting", "assistant", 4},
	{"mes_example", "example-messages", "Example messages", schema.SectionExamples, "example", "system", 0},
	{"post_history_instructions", "post-history-instructions", "Post-history instructions", schema.SectionPostHistory, "system", "system", 0},
}

// importCard converts a Character Card V2/V3 (root is the whole card) or a
// V1 card without spec (the card's fields at the top level).
func (im *importer) importCard(root *jnode) {
	data := root.get("data")
	if !data.is(jObj) {
		data = root // V1: no data wrapper
	}
	m := &im.lb.Manifest
	name, _ := data.get("name").strOf()
	if name != "" {
		m.Character = name
		m.Fields["character"] = im.pos(data.get("name"))
	}
	for _, cf := range cardFields {
		n := data.get(cf.field)
		s, ok := n.strOf()
		if !ok || strings.TrimSpace(s) == "" {
			continue
		}
		im.ids.reserve(cf.id)
		e := im.newEntry(n, cf.section)
		e.ID, e.Name, e.Role, e.APIRole, e.Position = cf.id, cf.name, cf.role, cf.apiRole, cf.position
		im.content(e, n)
		setExt(e, im.format, map[string]any{"field": cf.field})
		im.lb.Entries = append(im.lb.Entries, e)
	}
	skip := []string{"name", "character_book"}
	for _, cf := range cardFields {
		skip = append(skip, cf.field) // empty ones are written back as "" by export
	}
	ext := rest(data, skip...)
	if ext == nil {
		ext = map[string]any{}
	}
	im.keptBookAt(data, ext, "")
	if book := data.get("character_book"); book.is(jObj) {
		if bext := im.importBook(book); len(bext) > 0 {
			ext["character_book"] = bext
		}
	}
	if data != root {
		// Outside data: the V1 mirrors (export rebuilds them from data) and
		// what only the tool that wrote the card uses (avatar, fav…).
		if top := rest(root, "spec", "spec_version", "data", "name", "description", "personality", "scenario",
			"first_mes", "mes_example", "creatorcomment", "tags"); top != nil {
			ext["topLevel"] = top
		}
	}
	if m.Name == "" {
		m.Name = name
	}
	if len(ext) > 0 {
		m.Extensions = map[string]any{im.format: ext}
	}
}

// importLorebookV3 converts a standalone {spec: lorebook_v3, data: book}.
func (im *importer) importLorebookV3(root *jnode) {
	book := root.get("data")
	if !book.is(jObj) {
		book = root
	}
	ext := im.importBook(book)
	for ki, k := range root.keys() {
		if k != "data" {
			if ext == nil {
				ext = map[string]any{}
			}
			ext[k] = root.kids[ki].value()
		}
	}
	if len(ext) > 0 {
		im.lb.Manifest.Extensions = map[string]any{im.format: ext}
	}
}

// importBook converts a character_book (V2/V3 shape) and returns the book
// fields kept for extensions.
func (im *importer) importBook(book *jnode) map[string]any {
	ext := im.bookFields(book, "entries")
	prefix := "character_book."
	if im.format == FormatLorebookV3 {
		prefix = ""
	}
	im.keptBookAt(book, ext, prefix)
	ents := book.get("entries")
	if !ents.is(jArr) {
		return ext
	}
	for i, obj := range ents.items() {
		if obj.kind != jObj {
			im.skipped(obj, "a character_book entry that is not an object was skipped")
			continue
		}
		im.lb.Entries = append(im.lb.Entries, im.bookEntry(obj, i))
	}
	return ext
}

func (im *importer) bookEntry(obj *jnode, i int) *schema.Entry {
	x := obj.get("extensions")
	g := stGetter(x, obj)
	position := x.get("position")
	if !position.is(jNum) {
		// The V2 spec's string; ST's number in extensions wins when present.
		p := 0.0
		if s, _ := obj.get("position").strOf(); strings.HasPrefix(s, "after") {
			p = 1
		}
		if pn := obj.get("position"); pn != nil {
			position = &jnode{kind: jNum, num: p, str: strconv.Itoa(int(p)), line: pn.line, col: pn.col}
		} else {
			position = nil
		}
	}
	comment := obj.get("comment")
	if s, _ := comment.strOf(); s == "" && obj.has("name") {
		comment = obj.get("name")
	}
	v := stView{
		obj: obj, key: obj.get("keys"), keysecondary: obj.get("secondary_keys"), comment: comment,
		content: obj.get("content"), constant: obj.get("constant"), selective: obj.get("selective"),
		selectiveLogic: g("selectiveLogic", "selective_logic"), order: obj.get("insertion_order"),
		position: position, disable: obj.get("enabled"), enabledInverse: true,
		depth: x.get("depth"), role: x.get("role"),
		excludeRecursion: g("exclude_recursion", "excludeRecursion"),
		preventRecursion: g("prevent_recursion", "preventRecursion"),
		matchWholeWords:  g("match_whole_words", "matchWholeWords"),
	}
	fallback := "entry-" + strconv.Itoa(i+1)
	if id := obj.get("id"); id.is(jNum) {
		fallback = "entry-" + id.str
	}
	r := im.mapST(v, fallback)
	e := r.entry
	ext := map[string]any{}
	for fi, f := range obj.keys() {
		n := obj.kids[fi]
		// Only the entry's own fields are consumed; its extensions object is
		// kept whole (export writes it back with mapped values updated).
		if f == "extensions" || !r.consumed.has(n) {
			ext[f] = n.value()
		}
	}
	if im.format == FormatCardV3 || im.format == FormatLorebookV3 {
		if decos, body := splitDecorators(e.Content); len(decos) > 0 {
			e.Content = body
			ds := make([]any, len(decos))
			for i, d := range decos {
				ds[i] = d
			}
			ext["decorators"] = ds
		}
	}
	im.keptAt(e, obj, ext)
	setExt(e, im.format, ext)
	return e
}

// splitDecorators takes the V3 "@@name args" lines off the top of content.
func splitDecorators(content string) (decos []string, body string) {
	body = content
	for strings.HasPrefix(body, "@@") {
		line, after, found := strings.Cut(body, "\n")
		decos = append(decos, strings.TrimRight(line, "\r"))
		if !found {
			return decos, ""
		}
		body = after
	}
	return decos, body
}
