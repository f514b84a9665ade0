package formats

import (
	"strconv"

	"github.com/lorekit/lore/schema"
)

func isRisu(root *jnode) bool {
	t, _ := root.get("type").strOf()
	return t == "risu" && root.get("data").is(jArr)
}

// importRisu converts a RisuAI lorebook export: {type: "risu", ver, data:
// [loreBook…]} where a loreBook is {key, secondkey, insertorder, comment,
// content, mode, alwaysActive, selective, useRegex, activationPercent, folder…}.
// Keys are comma-separated strings. Entries of mode "folder" become the
// manifest's folders.
func (im *importer) importRisu(root *jnode) {
	if ext := rest(root, "data", "type"); ext != nil {
		im.lb.Manifest.Extensions = map[string]any{im.format: ext}
	}
	folders := map[string]string{} // risu folder key → lore folder id
	var folderIDs idAlloc
	folderIDs.used = map[string]bool{}
	items := root.get("data").items()
	for i, obj := range items {
		if mode, _ := obj.get("mode").strOf(); mode == "folder" {
			name, _ := obj.get("comment").strOf()
			id := folderIDs.id(name, "folder-"+strconv.Itoa(i+1))
			key, _ := obj.get("key").strOf()
			folders[key] = id
			im.lb.Manifest.Folders = append(im.lb.Manifest.Folders, schema.Folder{ID: id, Name: name, Pos: im.pos(obj)})
		}
	}
	for i, obj := range items {
		if obj.kind != jObj {
			im.skipped(obj, "a RisuAI lorebook entry that is not an object was skipped")
			continue
		}
		if mode, _ := obj.get("mode").strOf(); mode == "folder" {
			continue
		}
		e := im.loreEntry(obj)
		im.content(e, obj.get("content"))
		name := im.name(e, obj.get("comment"))
		e.Keywords = im.commaKeywords(obj.get("key"))
		im.field(e, "keywords", obj.get("key"))
		consumed := []string{"key", "content", "comment", "alwaysActive", "insertorder"}
		if b, _ := obj.get("selective").boolOf(); b {
			if sec := im.commaKeywords(obj.get("secondkey")); len(sec) > 0 {
				e.SecondaryKeywords = sec
				im.field(e, "secondaryKeywords", obj.get("secondkey"))
				consumed = append(consumed, "secondkey")
			}
		}
		im.setBool(e, &e.AlwaysSend, "alwaysSend", obj.get("alwaysActive"))
		im.setInt(e, &e.Position, "position", obj.get("insertorder"))
		if f, _ := obj.get("folder").strOf(); f != "" {
			if id, ok := folders[f]; ok {
				e.FolderID = id
				consumed = append(consumed, "folder")
			}
		}
		e.ID = im.entryID(name, e.Keywords, "entry-"+strconv.Itoa(i+1))
		ext := rest(obj, consumed...)
		im.keptAt(e, obj, ext)
		setExt(e, im.format, ext)
		im.lb.Entries = append(im.lb.Entries, e)
	}
}
