package formats

import (
	"regexp"
	"strings"

	"github.com/lorekit/lore/schema"
)

// aidKind tells legacy world info ({keys, entry, hidden}) from story cards
// ({keys, value, type, title, description}); "" when items is neither.
func aidKind(items *jnode) string {
	if !items.is(jArr) || len(items.arr) == 0 {
		return ""
	}
	wi, cards := true, true
	for _, it := range items.arr {
		if it.kind != jObj {
			return ""
		}
		wi = wi && it.has("keys") && it.has("entry")
		cards = cards && it.has("value") && (it.has("keys") || it.has("title"))
	}
	switch {
	case wi:
		return "wi"
	case cards:
		return "cards"
	}
	return ""
}

// aidAttr is the EWIJSON attribute suffix of a legacy key: "Karth River#[t=5l=5f=2S=2]".
var aidAttr = regexp.MustCompile(`#\[[^\]]*\]\s*$`)

func (im *importer) importAIDungeon(items *jnode, kind string) {
	for i, obj := range items.arr {
		e := im.loreEntry(obj)
		e.Position = i
		if kind == "wi" {
			im.aidWorldInfo(e, obj)
		} else {
			im.aidStoryCard(e, obj)
		}
		im.lb.Entries = append(im.lb.Entries, e)
	}
}

func (im *importer) aidWorldInfo(e *schema.Entry, obj *jnode) {
	im.content(e, obj.get("entry"))
	ext := rest(obj, "keys", "entry")
	keys := obj.get("keys")
	var attrs []any
	for _, k := range im.commaKeywords(keys) {
		if a := aidAttr.FindString(k.Text); a != "" {
			attrs = append(attrs, strings.TrimSpace(a))
			k.Text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(k.Text), strings.TrimSpace(a)))
		}
		if k.Text != "" {
			e.Keywords = append(e.Keywords, k)
		}
	}
	im.field(e, "keywords", keys)
	if len(attrs) > 0 {
		if ext == nil {
			ext = map[string]any{}
		}
		ext["keys"] = keys.value() // as written, attributes included
		ext["keyAttributes"] = attrs
	}
	first := ""
	if len(e.Keywords) > 0 {
		first = e.Keywords[0].Text
		e.Name = first
	}
	idText := ""
	if s, ok := obj.get("id").strOf(); ok {
		idText = s
	}
	e.ID = im.entryID("", e.Keywords, "entry-"+idText)
	im.keptAt(e, obj, ext)
	if _, ok := ext["keyAttributes"]; ok {
		e.Fields[im.keptName("", "keyAttributes")] = im.pos(keys)
	}
	setExt(e, im.format, ext)
}

func (im *importer) aidStoryCard(e *schema.Entry, obj *jnode) {
	im.content(e, obj.get("value"))
	e.Keywords = im.commaKeywords(obj.get("keys"))
	im.field(e, "keywords", obj.get("keys"))
	title := im.name(e, obj.get("title"))
	if t, _ := obj.get("type").strOf(); t != "" {
		e.Tags = []string{t}
		im.field(e, "tags", obj.get("type"))
	}
	e.ID = im.entryID(title, e.Keywords, "card")
	ext := rest(obj, "keys", "value", "title", "type")
	im.keptAt(e, obj, ext)
	setExt(e, im.format, ext)
}
