package formats

import (
	"regexp"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// aidKind tells legacy world info ({keys, entry, hidden}) from story cards
// ({keys, value, type, title, description}); "" when items is neither.
func aidKind(items *jnode) string {
	if !items.is(jArr) || len(items.items()) == 0 {
		return ""
	}
	wi, cards := true, true
	for _, it := range items.items() {
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

// aidKeyParts takes the attribute blocks off the comma-separated parts of a
// legacy key: the parts left (blank ones dropped) with the index each came
// from, the blocks, and how many
// of the parts EWIJSON reads as keys when there are blocks: those up to the
// first part that ends in one, since EWIJSON takes all that follows the '#'
// for attributes ("whiterun#[t=1], dragonsreach#[t=2]" is whiterun alone).
func aidKeyParts(texts []string) (parts []string, from []int, attrs []any, ewi int) {
	ewi = -1
	for i, t := range texts {
		a := aidAttr.FindString(t)
		if a != "" {
			attrs = append(attrs, strings.TrimSpace(a))
			t = strings.TrimSuffix(strings.TrimSpace(t), strings.TrimSpace(a))
		}
		if t = strings.TrimSpace(t); t != "" {
			parts, from = append(parts, t), append(from, i)
		}
		if a != "" && ewi < 0 {
			ewi = len(parts)
		}
	}
	if ewi < 0 {
		ewi = len(parts)
	}
	return parts, from, attrs, ewi
}

func (im *importer) importAIDungeon(items *jnode, kind string) {
	for i, obj := range items.items() {
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
	raw := im.commaKeywords(keys)
	texts := make([]string, len(raw))
	for i, k := range raw {
		texts[i] = k.Text
	}
	parts, from, attrs, ewi := aidKeyParts(texts)
	for i, p := range parts {
		e.Keywords = append(e.Keywords, schema.Keyword{Text: p, Pos: raw[from[i]].Pos})
	}
	im.field(e, "keywords", keys)
	first := ""
	if len(e.Keywords) > 0 {
		first = e.Keywords[0].Text
	}
	if len(attrs) > 0 {
		if ext == nil {
			ext = map[string]any{}
		}
		ext["keys"] = keys.value() // as written, attributes included
		ext["keyAttributes"] = attrs
		first = im.ewiKeys(e, e.Keywords[:ewi]) // EWIJSON's regular expressions (aidungeon_ewi.go)
	} else {
		for _, k := range e.Keywords {
			if looksLikeAlternatives(k.Text) {
				im.diags = append(im.diags, diag.New(k.Pos, diag.Warning, "load",
					"key %q is written as alternatives (EWIJSON's regular expressions), but the entry has no #[...] attributes, so AI Dungeon matches it as text and it never fires; write each alternative as a key of its own, or as a /regex/i keyword", k.Text))
			}
		}
	}
	if first != "" {
		e.Name = first
	}
	idText := ""
	if s, ok := obj.get("id").strOf(); ok {
		idText = s
	}
	e.ID = im.entryID(first, e.Keywords, "entry-"+idText) // the name: a /regex/i keyword would end the id in "-i"
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
