package formats

import (
	"strconv"

	"github.com/lorekit/lore/schema"
)

// NovelAI's defaults for a new lore entry (its contextfield defaults): the
// largest token budget of v4 files and the characters of story searched.
const (
	naiMaxTokens   = 2048
	naiSearchRange = 1000
)

func isNovelAI(root *jnode) bool {
	return root.has("lorebookVersion") && root.get("entries").is(jArr)
}

// naiCategory is what an entry takes from its category: its name (a tag)
// and whether the category is enabled (a disabled one disables its entries).
type naiCategory struct {
	name    string
	enabled bool
}

// importNovelAI converts a NovelAI .lorebook (v4–v6).
func (im *importer) importNovelAI(root *jnode) {
	cats := map[string]naiCategory{} // v5+: category id → category
	if cs := root.get("categories"); cs.is(jArr) {
		for _, c := range cs.items() {
			id, _ := c.get("id").strOf()
			name, _ := c.get("name").strOf()
			en, ok := c.get("enabled").boolOf()
			if id != "" && name != "" {
				cats[id] = naiCategory{name, en || !ok}
			}
		}
	}
	if ext := rest(root, "entries"); ext != nil {
		im.lb.Manifest.Extensions = map[string]any{im.format: ext}
		im.keptBookAt(root, ext, "")
	}
	empty := 0
	var firstEmpty *jnode
	for i, obj := range root.get("entries").items() {
		if obj.kind != jObj || len(obj.keys()) == 0 {
			// NovelAI's generator templates leave {} placeholders.
			empty++
			if firstEmpty == nil {
				firstEmpty = obj
			}
			continue
		}
		im.lb.Entries = append(im.lb.Entries, im.naiEntry(obj, i, cats))
	}
	if empty > 0 {
		im.skipped(firstEmpty, "%s skipped: %s", plural(empty, "empty {} placeholder entry", "empty {} placeholder entries"),
			"NovelAI's generator templates leave them, and they hold nothing")
	}
}

// naiEntry converts one entry (index i in the file). NovelAI matches keys
// as whole words, and only in the story text unless nonStoryActivatable:
// lore's matchWholeWords and excludeRecursion say the same. An entry that
// NovelAI inserts after the story (budgetPriority below 0) sits in the chat:
// insertionPosition -1 (the bottom) is lore's post-history, -n is depth n-2
// (a message of lore is a line of NovelAI's story).
func (im *importer) naiEntry(obj *jnode, i int, cats map[string]naiCategory) *schema.Entry {
	e, name := im.plainEntry(obj, "text", "displayName", "keys")
	e.Position = i
	im.setBool(e, &e.AlwaysSend, "alwaysSend", obj.get("forceActivation"))
	e.MatchWholeWords = true
	nonStory, _ := obj.get("nonStoryActivatable").boolOf()
	e.ExcludeRecursion = !nonStory
	if c, _ := obj.get("category").strOf(); c != "" {
		if cat, ok := cats[c]; ok {
			c = cat.name
			e.Enabled = e.Enabled && cat.enabled
		}
		e.Tags = []string{c}
	}
	cc := obj.get("contextConfig")
	if prio, ok := cc.get("budgetPriority").numOf(); ok && prio < 0 {
		if p, ok := intOf(cc.get("insertionPosition")); ok && p < 0 {
			if p == -1 {
				e.Section = schema.SectionPostHistory
			} else {
				d := -p - 2
				e.Depth = &d
				im.field(e, "depth", cc.get("insertionPosition"))
			}
		}
	}
	e.ID = im.entryID(name, e.Keywords, "entry-"+strconv.Itoa(i+1))
	ext := rest(obj, "text", "displayName", "keys", "enabled", "forceActivation")
	im.keptAt(e, obj, ext)
	setExt(e, im.format, ext)
	return e
}
