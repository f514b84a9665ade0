package formats

import (
	"strconv"

	"github.com/lorekit/lore/schema"
)

func isAgnai(root *jnode) bool {
	k, _ := root.get("kind").strOf()
	e := root.get("entries")
	return k == "memory" && e != nil && e.kind == jArr
}

// importAgnai converts an Agnai memory book: {kind: "memory", name,
// description, entries: [{name, entry, keywords, priority, weight, enabled}]}.
func (im *importer) importAgnai(root *jnode) {
	im.bookHeader(root, "entries", "kind")
	for i, obj := range root.get("entries").arr {
		if obj.kind != jObj {
			continue
		}
		e := im.newEntry(obj, schema.SectionChatHistory)
		e.Role = "lore"
		im.content(e, obj.get("entry"))
		name, _ := obj.get("name").strOf()
		if name != "" {
			e.Name = name
			im.field(e, "name", obj.get("name"))
		}
		e.Keywords = im.keywords(obj.get("keywords"))
		im.field(e, "keywords", obj.get("keywords"))
		if b, ok := obj.get("enabled").boolOf(); ok {
			e.Enabled = b
			im.field(e, "enabled", obj.get("enabled"))
		}
		// "the highest weight is rendered at the bottom": lore's position.
		if w, ok := intOf(obj.get("weight")); ok {
			e.Position = w
			im.field(e, "position", obj.get("weight"))
		}
		if p, ok := obj.get("priority").numOf(); ok && p != 0 {
			im.note("priority", obj.get("priority"), "Agnai priority (which memories are dropped first) has no place in lore (SPEC §4 ranks cards): kept under extensions.%s", im.format)
		}
		e.ID = im.entryID(name, e.Keywords, "entry-"+strconv.Itoa(i+1))
		setExt(e, im.format, rest(obj, "entry", "name", "keywords", "enabled", "weight"))
		im.lb.Entries = append(im.lb.Entries, e)
	}
}
