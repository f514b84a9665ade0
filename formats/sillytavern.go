package formats

import (
	"strconv"

	"github.com/lorekit/lore/schema"
)

// FormatSillyTavern and the other ids name a format in Lorebook.Format and in
// Extensions.
const (
	FormatLore        = "lore"
	FormatSillyTavern = "sillytavern"
	FormatCardV2      = "card-v2"
	FormatCardV3      = "card-v3"
	FormatCharX       = "charx"
	FormatLorebookV3  = "lorebook-v3"
	FormatNovelAI     = "novelai"
	FormatAIDungeon   = "aidungeon"
	FormatAgnai       = "agnai"
	FormatRisu        = "risu"
)

// isSillyTavern: an "entries" object keyed by uid whose values look like ST
// entries (key/keysecondary/uid/content).
func isSillyTavern(root *jnode) bool {
	ents := root.get("entries")
	if !ents.is(jObj) {
		return false
	}
	if len(ents.keys()) == 0 {
		return true // an empty ST book is still an ST book
	}
	for _, v := range ents.kids {
		if v.kind != jObj {
			return false
		}
		if !(v.has("key") || v.has("keysecondary") || v.has("uid") || v.has("content")) {
			return false
		}
	}
	return true
}

func stGetter(objs ...*jnode) func(names ...string) *jnode {
	return func(names ...string) *jnode {
		for _, o := range objs {
			for _, n := range names {
				if v := o.get(n); v != nil {
					return v
				}
			}
		}
		return nil
	}
}

func (im *importer) importSillyTavern(root *jnode) {
	im.bookHeader(root, "entries")
	ents := root.get("entries")
	for ki, k := range ents.keys() {
		obj := ents.kids[ki]
		v := stView{
			obj: obj, key: obj.get("key"), keysecondary: obj.get("keysecondary"), comment: obj.get("comment"),
			content: obj.get("content"), constant: obj.get("constant"), selective: obj.get("selective"),
			selectiveLogic: obj.get("selectiveLogic"), order: obj.get("order"), position: obj.get("position"),
			disable: obj.get("disable"), depth: obj.get("depth"), role: obj.get("role"),
			excludeRecursion: obj.get("excludeRecursion"), preventRecursion: obj.get("preventRecursion"),
			matchWholeWords: obj.get("matchWholeWords"),
		}
		uid := k
		if u := obj.get("uid"); u.is(jNum) {
			uid = u.str
		} else if s, ok := u.strOf(); ok {
			uid = s
		}
		r := im.mapST(v, "entry-"+uid)
		ext := map[string]any{}
		for fi, f := range obj.keys() {
			if !r.consumed.has(obj.kids[fi]) {
				ext[f] = obj.kids[fi].value()
			}
		}
		if !obj.has("uid") {
			// The map key is the uid; keep it so export writes the same key.
			if n, err := strconv.Atoi(k); err == nil {
				ext["uid"] = float64(n)
			} else {
				ext["uid"] = k
			}
		}
		im.keptAt(r.entry, obj, ext)
		setExt(r.entry, FormatSillyTavern, ext)
		im.lb.Entries = append(im.lb.Entries, r.entry)
	}
}

// bookHeader maps a book's top-level fields: name and description to the
// manifest, recursive_scanning: false to recursionLimit 0, everything else
// (scan depth, token budget, extensions…) verbatim under
// manifest.extensions.<format>. Both ST's camelCase and the V2 book's
// snake_case spellings occur (corpus: Nen_Encyclopedia, world_one).
func (im *importer) bookHeader(root *jnode, skip ...string) {
	if ext := im.bookFields(root, skip...); len(ext) > 0 {
		im.keptBookAt(root, ext, "")
		m := &im.lb.Manifest
		if m.Extensions == nil {
			m.Extensions = map[string]any{}
		}
		m.Extensions[im.format] = ext
	}
}

// bookFields maps the header and returns what stays for extensions.
func (im *importer) bookFields(root *jnode, skip ...string) map[string]any {
	m := &im.lb.Manifest
	skipped := keySet(skip)
	ext := map[string]any{}
	for ki, k := range root.keys() {
		v := root.kids[ki]
		if skipped[k] {
			continue
		}
		switch k {
		case "name", "description":
			dst := &m.Name
			if k == "description" {
				dst = &m.Description
			}
			if s, ok := v.strOf(); ok && *dst == "" {
				*dst = s
				m.Fields[k] = im.pos(v)
				continue
			}
		case "recursive_scanning", "recursiveScanning":
			if b, ok := v.boolOf(); ok && !b {
				m.Settings.RecursionLimit = 0
				if m.Settings.Fields == nil {
					m.Settings.Fields = map[string]schema.Pos{}
				}
				m.Settings.Fields["recursionLimit"] = im.pos(v)
			}
		}
		ext[k] = v.value()
	}
	return ext
}
