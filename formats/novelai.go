package formats

import (
	"strconv"
)

func isNovelAI(root *jnode) bool {
	return root.has("lorebookVersion") && root.get("entries").is(jArr)
}

// importNovelAI converts a NovelAI .lorebook (v4–v6).
func (im *importer) importNovelAI(root *jnode) {
	cats := map[string]string{} // v5+: category id → name
	if cs := root.get("categories"); cs.is(jArr) {
		for _, c := range cs.arr {
			id, _ := c.get("id").strOf()
			name, _ := c.get("name").strOf()
			if id != "" && name != "" {
				cats[id] = name
			}
		}
	}
	if ext := rest(root, "entries"); ext != nil {
		im.lb.Manifest.Extensions = map[string]any{im.format: ext}
		if cs := root.get("categories"); cs != nil && len(cs.arr) > 0 {
			im.note("categories", cs, "NovelAI categories (subcontexts, category defaults and bias groups) have no place in lore: entries get their category's name as a tag, the categories are kept under manifest extensions.%s", im.format)
		}
	}
	empty := 0
	var firstEmpty *jnode
	for i, obj := range root.get("entries").arr {
		if obj.kind != jObj || len(obj.keys) == 0 {
			// NovelAI's generator templates leave {} placeholders.
			empty++
			if firstEmpty == nil {
				firstEmpty = obj
			}
			continue
		}
		e := im.loreEntry(obj)
		e.Position = i
		im.content(e, obj.get("text"))
		name := im.name(e, obj.get("displayName"))
		e.Keywords = im.keywords(obj.get("keys"))
		im.field(e, "keywords", obj.get("keys"))
		im.setBool(e, &e.Enabled, "enabled", obj.get("enabled"))
		im.setBool(e, &e.AlwaysSend, "alwaysSend", obj.get("forceActivation"))
		if c, _ := obj.get("category").strOf(); c != "" {
			if n, ok := cats[c]; ok {
				c = n
			}
			e.Tags = []string{c}
		}
		e.ID = im.entryID(name, e.Keywords, "entry-"+strconv.Itoa(i+1))
		setExt(e, im.format, rest(obj, "text", "displayName", "keys", "enabled", "forceActivation"))
		if n := obj.get("contextConfig"); n != nil {
			im.note("contextConfig", n, "NovelAI contextConfig (prefix, suffix, token budget, priority, trimming, insertion position) has no place in lore: kept under extensions.%s", im.format)
		}
		if n := obj.get("loreBiasGroups"); n.is(jArr) && len(n.arr) > 0 {
			im.note("loreBiasGroups", n, "NovelAI loreBiasGroups (phrase biases) have no place in lore: kept under extensions.%s", im.format)
		}
		if n := obj.get("searchRange"); n != nil {
			im.note("searchRange", n, "NovelAI searchRange (characters of story scanned) has no place in lore (lore's budget sets the scan window): kept under extensions.%s", im.format)
		}
		for _, k := range []string{"keyRelative", "nonStoryActivatable"} {
			if b, _ := obj.get(k).boolOf(); b {
				im.note(k, obj.get(k), "NovelAI %s has no place in lore: kept under extensions.%s", k, im.format)
			}
		}
		if n := obj.get("advancedConditions"); n.is(jArr) && len(n.arr) > 0 {
			im.note("advancedConditions", n, "NovelAI advancedConditions have no place in lore: kept under extensions.%s", im.format)
		}
		im.lb.Entries = append(im.lb.Entries, e)
	}
	if empty > 0 {
		if empty == 1 {
			im.note("empty", firstEmpty, "1 empty {} placeholder entry skipped")
		} else {
			im.note("empty", firstEmpty, "%d empty {} placeholder entries skipped", empty)
		}
	}
}
