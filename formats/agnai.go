package formats

import "strconv"

func isAgnai(root *jnode) bool {
	k, _ := root.get("kind").strOf()
	return k == "memory" && root.get("entries").is(jArr)
}

// importAgnai converts an Agnai memory book: {kind: "memory", name,
// description, entries: [{name, entry, keywords, priority, weight, enabled}]}.
func (im *importer) importAgnai(root *jnode) {
	im.bookHeader(root, "entries", "kind")
	for i, obj := range root.get("entries").items() {
		if obj.kind != jObj {
			im.skipped(obj, "an Agnai memory entry that is not an object was skipped")
			continue
		}
		e, name := im.plainEntry(obj, "entry", "name", "keywords")
		// "the highest weight is rendered at the bottom": lore's position.
		im.setInt(e, &e.Position, "position", obj.get("weight"))
		e.ID = im.entryID(name, e.Keywords, "entry-"+strconv.Itoa(i+1))
		ext := rest(obj, "entry", "name", "keywords", "enabled", "weight")
		im.keptAt(e, obj, ext)
		setExt(e, im.format, ext)
		im.lb.Entries = append(im.lb.Entries, e)
	}
}
