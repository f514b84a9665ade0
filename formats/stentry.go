package formats

import (
	"math"
	"strings"

	"github.com/lorekit/lore/schema"
)

// STEntry is one lore entry seen as the SillyTavern world-info entry it
// stands for: the fields lore maps, said in SillyTavern's terms, over the
// fields kept under extensions at import, every other field at ST's
// new-entry default. It is built once from lore's model (so a SillyTavern
// book read directly and the same book imported are seen alike) and read by
// the sillytavern engine (Value and the typed accessors, with SillyTavern's
// JavaScript meanings), by export (Map) and by the loss report (Kept), and
// it says where each field came from (Field), so a finding or an explanation
// about a field points at it.
//
// Adding a field SillyTavern gained is one line in stTemplate (its name and
// default); a field lore maps is one case in mapST and one here.
type STEntry struct {
	Entry *schema.Entry
	// format is the format of the file the book was read from: it decides
	// how Field spells a field lore maps.
	format string
	stKeptFields
	fromST     bool // the entry came from SillyTavern or a card
	ownKept    bool // kept was made for this view (a card's fields), Map may take it
	outletKept bool // disable is the one it came with (an outlet lore imported disabled)
	// mapped holds the fields lore's model decides, by stMapped index; set
	// says which of them it decides for this entry (the others are kept or
	// at ST's default).
	mapped [stNumMapped]any
	set    uint32
}

// stKeptFields are what an entry kept of SillyTavern's fields (stKept),
// read-only: kept is an ST entry's extensions.sillytavern itself, or a card
// entry's fields under ST's names; card and inner are the card entry's own
// kept fields and its extensions, as written, and cardFormat its format.
type stKeptFields struct {
	kept        map[string]any
	card, inner map[string]any
	cardFormat  string
}

// The fields lore's model decides, as SillyTavern names them.
const (
	stmKey = iota
	stmKeySecondary
	stmSelective
	stmSelectiveLogic
	stmComment
	stmContent
	stmConstant
	stmOrder
	stmExcludeRecursion
	stmPreventRecursion
	stmMatchWholeWords
	stmPosition
	stmDepth
	stmRole
	stmDisable
	stNumMapped
)

// stMapped is, for each field lore maps, its ST name, lore's field and the
// card's spelling (card entries hold some at their top level, the others
// under extensions).
var stMapped = [stNumMapped]struct{ st, lore, card string }{
	{"key", "keywords", "keys"},
	{"keysecondary", "secondaryKeywords", "secondary_keys"},
	{"selective", "secondaryKeywords", "selective"},
	{"selectiveLogic", "secondaryKeywordLogic", "extensions.selectiveLogic"},
	{"comment", "name", "comment"},
	{"content", "content", "content"},
	{"constant", "alwaysSend", "constant"},
	{"order", "position", "insertion_order"},
	{"excludeRecursion", "excludeRecursion", "extensions.exclude_recursion"},
	{"preventRecursion", "preventRecursion", "extensions.prevent_recursion"},
	{"matchWholeWords", "matchWholeWords", "extensions.match_whole_words"},
	{"position", "section", "extensions.position"},
	{"depth", "depth", "extensions.depth"},
	{"role", "apiRole", "extensions.role"},
	{"disable", "enabled", "enabled"},
}

var stMappedIndex = func() map[string]int {
	m := make(map[string]int, stNumMapped)
	for i, f := range stMapped {
		m[f.st] = i
	}
	return m
}()

// STEntries is the SillyTavern view of every entry of lb, in the book's
// order (nil for a nil entry).
func STEntries(lb *schema.Lorebook) []*STEntry {
	out := make([]*STEntry, len(lb.Entries))
	views := make([]STEntry, len(lb.Entries)) // one allocation for the book
	for i, e := range lb.Entries {
		if e != nil {
			views[i].init(e, lb.Format, false)
			out[i] = &views[i]
		}
	}
	return out
}

// NewSTEntry is the SillyTavern view of one entry of a book read from a
// file of that format ("" or "lore" for lore's own files).
func NewSTEntry(e *schema.Entry, format string) *STEntry { return newSTEntry(e, format) }

// newSTEntry maps e as stFields always has: the kept fields, overlaid with
// what lore's model says (stSetMapped, stPositionFor, stDisable).
func newSTEntry(e *schema.Entry, format string) *STEntry {
	v := &STEntry{}
	v.init(e, format, false)
	return v
}

// init makes v the view of e (newSTEntry); forMap sizes a card entry's
// fields for Map, which adds every field of ST's template to them.
func (v *STEntry) init(e *schema.Entry, format string, forMap bool) {
	v.Entry, v.format = e, format
	size := 8
	if forMap {
		size = len(stTemplate) + 4
	}
	v.kept, v.cardFormat, v.card, v.inner = stKept(e, size)
	v.ownKept = v.card != nil
	_, isST := e.Extensions[FormatSillyTavern].(map[string]any)
	v.fromST = isST || v.card != nil
	keptPos := -1
	if p, ok := v.kept["position"].(float64); ok {
		keptPos = int(p)
	} else if _, ok := v.kept["position"]; !ok && v.fromST {
		keptPos = stBeforeChar // an ST entry without a position: ST's new-entry default
	}
	_, keptDisable := v.kept["disable"]
	v.setMapped()
	pos := v.positionFor(keptPos)
	v.put(stmPosition, float64(pos))
	v.put(stmDisable, stDisable(v.kept, e, pos, keptDisable || !v.fromST))
	_, keptBool := v.kept["disable"].(bool)
	v.outletKept = pos == stOutlet && !e.Enabled && keptBool
}

func (v *STEntry) put(i int, x any) {
	v.mapped[i] = x
	v.set |= 1 << i
}

func (v *STEntry) has(i int) bool { return v.set&(1<<i) != 0 }

// setMapped writes the fields lore maps one to one.
func (v *STEntry) setMapped() {
	e := v.Entry
	v.put(stmKey, anyStrings(keywordTexts(e.Keywords)))
	if len(e.SecondaryKeywords) > 0 {
		v.put(stmKeySecondary, anyStrings(keywordTexts(e.SecondaryKeywords)))
		v.put(stmSelective, true)
		// A selectiveLogic SillyTavern does not know (it never activates the
		// entry) stays as it was, until lore's logic is written explicitly:
		// lore's AND_ANY default is not what ST does with it.
		if i := stLogicIndex(e.SecondaryKeywordLogic); i >= 0 && (e.Has("secondaryKeywordLogic") || !unknownLogic(v.kept["selectiveLogic"])) {
			v.put(stmSelectiveLogic, float64(i))
		}
	} else if _, ok := v.kept["keysecondary"]; !ok {
		v.put(stmKeySecondary, []any{})
	}
	v.put(stmComment, stComment(v.kept, e))
	v.put(stmContent, originalContent(v.kept, e.Content))
	v.put(stmConstant, e.AlwaysSend)
	v.put(stmOrder, float64(e.Position))
	v.put(stmExcludeRecursion, e.ExcludeRecursion)
	v.put(stmPreventRecursion, e.PreventRecursion)
	mww, hasMWW := v.kept["matchWholeWords"]
	switch {
	case e.MatchWholeWords || mww != nil:
		v.put(stmMatchWholeWords, e.MatchWholeWords)
	case v.fromST && !e.Has("matchWholeWords"):
		// An ST entry that never said follows ST's global setting (null):
		// left as it came, absent or null.
	case !hasMWW:
		v.put(stmMatchWholeWords, false) // lore's default, said in ST's terms
	}
}

// positionFor decides ST's position (and depth and role, where they mean
// something) from lore's section and depth; keptPos is the position the
// entry came with, -1 for none. The section alone cannot tell 0 from 1,
// 2 from 3, 5 from 6, so the kept position decides between them.
func (v *STEntry) positionFor(keptPos int) int {
	e := v.Entry
	pos := keptPos
	switch e.Section {
	case schema.SectionChatHistory:
		if e.Depth != nil {
			v.put(stmDepth, float64(max(*e.Depth, 0)+1)) // lore's depth d is ST's d+1
			v.put(stmRole, stRoleIndex(v.kept, e))
			return stAtDepth
		}
		if pos != stBeforeChar && pos != stAfterChar && pos != stOutlet && !stUnknownPosition(pos) {
			return stAfterChar // the triggered block follows the character definitions
		}
	case schema.SectionPostHistory:
		d, _ := v.kept["depth"].(float64)
		switch {
		case pos == stANTop || pos == stANBottom:
		case pos == stAtDepth && d == 0:
			v.put(stmRole, stRoleIndex(v.kept, e))
		default:
			// After the newest message, as post-history is.
			v.put(stmDepth, 0.0)
			v.put(stmRole, stRoleIndex(v.kept, e))
			return stAtDepth
		}
	case schema.SectionExamples:
		if pos != stBeforeExample && pos != stAfterExample {
			return stBeforeExample
		}
	default: // system-presets: sent before the character definitions
		if pos != stBeforeChar && pos != stAfterChar {
			return stBeforeChar
		}
	}
	return pos
}

// Value is the field k as SillyTavern holds it (a decoded JSON value: nil,
// bool, float64, string, []any, map[string]any); ok is false for a field the
// entry lacks and ST's template does not define (uid and displayIndex,
// which export numbers, included).
func (v *STEntry) Value(k string) (any, bool) {
	if i, ok := stMappedIndex[k]; ok && v.has(i) {
		return v.mapped[i], true
	}
	if k == "lineEndings" {
		return nil, false // lore's note, not a SillyTavern field
	}
	if x, ok := v.kept[k]; ok {
		return x, true
	}
	if k == "uid" || k == "displayIndex" {
		return nil, false
	}
	x, ok := stDefaults[k]
	return x, ok
}

// Get is Value without the ok.
func (v *STEntry) Get(k string) any {
	x, _ := v.Value(k)
	return x
}

// Truthy is the field read as JavaScript's `if (entry.k)`.
func (v *STEntry) Truthy(k string) bool { return jsTruthy(v.Get(k)) }

// LooseTrue is the field read as JavaScript's `entry.k == true`.
func (v *STEntry) LooseTrue(k string) bool { return jsLooseTrue(v.Get(k)) }

// Number is the field read as JavaScript's Number(entry.k).
func (v *STEntry) Number(k string) float64 { return JSNumber(v.Get(k)) }

// String is the field when it is a string.
func (v *STEntry) String(k string) string {
	s, _ := v.Get(k).(string)
	return s
}

// Strings is the field as a list of strings (String() of each string,
// number or boolean in it), and whether it is a list at all.
func (v *STEntry) Strings(k string) ([]string, bool) { return stringsOf(v.Get(k)) }

// OptBool is a nullable boolean field: nil means "the global setting".
func (v *STEntry) OptBool(k string) *bool {
	x := v.Get(k)
	if x == nil {
		return nil
	}
	b := jsTruthy(x)
	return &b
}

// Filter is the entry's character filter: the names and tags it lists, and
// whether it excludes them.
func (v *STEntry) Filter() (names, tags []string, exclude bool) {
	f, ok := v.Get("characterFilter").(map[string]any)
	if !ok {
		return nil, nil, false
	}
	names, _ = stringsOf(f["names"])
	tags, _ = stringsOf(f["tags"])
	return names, tags, jsTruthy(f["isExclude"])
}

// Effect is a timed effect's length (sticky, cooldown, delay): 0 (none)
// unless a number SillyTavern takes as set.
func (v *STEntry) Effect(k string) float64 {
	x := v.Get(k)
	if !jsTruthy(x) {
		return 0
	}
	n := JSNumber(x)
	if math.IsNaN(n) {
		return 0
	}
	return n
}

// UID is the uid the entry kept (an ST entry's own, a card entry's id), and
// whether it kept one SillyTavern can name an object key with.
func (v *STEntry) UID() (string, bool) {
	m, k := v.kept, "uid"
	if v.cardFormat != "" {
		m, k = v.card, "id"
	}
	x, ok := m[k]
	if !ok {
		return "", false
	}
	return jsString(x)
}

// Map is the SillyTavern entry as export writes it: every field, the kept
// ones included. The map is the caller's; the view may hand over its own
// copy of a card entry's fields to it, so it is not read after Map.
func (v *STEntry) Map() map[string]any {
	var st map[string]any
	if v.ownKept {
		st, v.ownKept = v.kept, false // a card's fields seen with ST's names: made for this view
		delete(st, "lineEndings")
	} else {
		// Sized for every field of an exported entry: growing the map on
		// the way cost a third of building it.
		st = make(map[string]any, len(stTemplate)+len(v.kept)/4+4)
		for k, x := range v.kept {
			if k != "lineEndings" {
				st[k] = x
			}
		}
	}
	for i, f := range stMapped {
		if v.has(i) {
			st[f.st] = v.mapped[i]
		}
	}
	for _, t := range stTemplate {
		if _, ok := st[t.key]; !ok && t.key != "uid" && t.key != "displayIndex" {
			st[t.key] = t.def // uid and displayIndex: stEntries numbers them
		}
	}
	return st
}

// STField is where one SillyTavern field of an entry comes from: its name
// as the file the book was read from spells it ("disable" in a SillyTavern
// file, "enabled" in a card or a lore file, "extensions.probability" in a
// card), the position of its value there (the entry's when it has none),
// and the value as that name says it (enabled: false for disable: true).
type STField struct {
	Name  string
	Pos   schema.Pos
	Value any
}

// Field says where field k of the entry comes from.
func (v *STEntry) Field(k string) STField {
	e := v.Entry
	if i, ok := stMappedIndex[k]; ok && v.has(i) && !v.keptDecides(i) {
		f := stMapped[i]
		name := f.lore
		switch {
		case v.format == FormatSillyTavern:
			name = f.st
		case cardFamily(v.format):
			name = f.card
		}
		val := v.mapped[i]
		if i == stmDisable && name == "enabled" {
			val = !jsLooseTrue(val)
		}
		return STField{Name: name, Pos: e.FieldPos(f.lore), Value: val}
	}
	val := v.Get(k)
	if name, at, ok := v.keptAt(k); ok {
		if name == "enabled" || strings.HasSuffix(name, ".enabled") {
			val = !jsLooseTrue(val)
		}
		return STField{Name: name, Pos: e.FieldPos(at), Value: val}
	}
	name := k
	switch {
	case v.format == FormatSillyTavern:
	case cardFamily(v.format):
		name = "extensions." + cardExtName(k)
	default:
		name = "extensions." + FormatSillyTavern + "." + k
	}
	return STField{Name: name, Pos: e.Pos, Value: val}
}

// cardFamily is a format whose entries are a character card's
// character_book entries.
func cardFamily(format string) bool { return isCard(format) || format == FormatLorebookV3 }

// keptDecides says the value of a mapped field is the one the entry kept:
// an outlet's disable, which lore's enabled does not say, and a position
// lore's section leaves as it came.
func (v *STEntry) keptDecides(i int) bool {
	switch i {
	case stmDisable:
		return v.outletKept
	case stmPosition:
		p, ok := v.kept["position"].(float64)
		return ok && p == v.mapped[i]
	}
	return false
}

// keptAt finds a kept field: its name in the file the book was read from
// and its key in the entry's Fields.
func (v *STEntry) keptAt(k string) (name, at string, ok bool) {
	src := FormatSillyTavern
	if v.cardFormat != "" {
		src = v.cardFormat
	}
	rel := func(field string) string {
		if v.format == src || src != FormatSillyTavern && cardFamily(v.format) {
			return field
		}
		return "extensions." + src + "." + field
	}
	found := func(field string) (string, string, bool) {
		return rel(field), "extensions." + src + "." + field, true
	}
	if v.cardFormat == "" {
		if _, has := v.kept[k]; has {
			return found(k)
		}
		return "", "", false
	}
	if top, ok := cardTopST[k]; ok {
		if x, has := v.card[top]; has {
			if _, isBool := x.(bool); k != "disable" || isBool {
				return found(top)
			}
		}
	}
	if k == "position" {
		if _, isNum := v.kept["position"].(float64); isNum {
			if _, inner := v.inner["position"]; !inner {
				return found("position")
			}
		}
	}
	for x := range v.inner {
		if x == k || snakeToCamel(x) == k {
			return found("extensions." + x)
		}
	}
	return "", "", false
}

// cardTopST is, for the ST fields a card entry holds at its top level (as
// stKept reads them), the card's name for it.
var cardTopST = map[string]string{"selective": "selective", "caseSensitive": "case_sensitive", "comment": "comment",
	"content": "content", "uid": "id", "keysecondary": "secondary_keys", "disable": "enabled"}

// Kept finds a field the entry kept, by its names (camelCase, then other
// spellings): in a card entry's extensions first, then among its kept
// fields. field is the name relative to the kept object ("probability",
// "extensions.probability"), as the loss report names it.
func (v *stKeptFields) Kept(names ...string) (x any, field string, ok bool) {
	m := v.kept
	if v.cardFormat != "" {
		m = v.card
	}
	for _, n := range names {
		if x, ok := v.inner[n]; ok {
			return x, "extensions." + n, true
		}
		if x, ok := m[n]; ok {
			return x, n, true
		}
	}
	return nil, "", false
}

// stKeptView is the fields an entry kept of one format (sillytavern or a
// card's), for the loss report, which reads only those.
func stKeptView(e *schema.Entry, format string) stKeptFields {
	var v stKeptFields
	m, _ := e.Extensions[format].(map[string]any)
	if format == FormatSillyTavern {
		v.kept = m
	} else {
		v.cardFormat, v.card = format, m
		v.inner, _ = m["extensions"].(map[string]any)
	}
	return v
}

// stKept is what the entry kept of its SillyTavern fields: an ST entry's
// extensions.sillytavern as is (not a copy: callers only read it), or a card
// entry's fields seen with ST's names (its extensions in camelCase, its
// enabled as disable; room for size more), with the card's format, its kept
// fields and its extensions.
func stKept(e *schema.Entry, size int) (st map[string]any, format string, card, inner map[string]any) {
	if m, ok := e.Extensions[FormatSillyTavern].(map[string]any); ok {
		return m, "", nil, nil
	}
	format, card = cardOrigin(e)
	if card == nil {
		return nil, "", nil, nil
	}
	inner, _ = card["extensions"].(map[string]any)
	st = make(map[string]any, len(inner)+size)
	for k, v := range inner {
		st[snakeToCamel(k)] = v
	}
	if id, ok := card["id"]; ok {
		st["uid"] = id
	}
	for _, k := range []string{"selective", "case_sensitive", "comment", "content", "lineEndings"} {
		if v, ok := card[k]; ok {
			st[snakeToCamel(k)] = v
		}
	}
	if v, ok := card["secondary_keys"]; ok {
		st["keysecondary"] = v // kept when inactive (selective: false)
	}
	if en, ok := card["enabled"].(bool); ok {
		st["disable"] = !en // kept only when lore did not map it (outlets)
	}
	if _, ok := st["position"].(float64); !ok {
		if s, _ := card["position"].(string); strings.HasPrefix(s, "after") {
			st["position"] = float64(stAfterChar)
		} else if s != "" {
			st["position"] = float64(stBeforeChar)
		}
	}
	return st, format, card, inner
}

func stringsOf(v any) ([]string, bool) {
	xs, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if s, ok := jsString(x); ok {
			out = append(out, s)
		}
	}
	return out, true
}

// CardField is the character card field an entry was made from at import
// ("description", "personality", "scenario", "first_mes", "mes_example",
// "system_prompt", "post_history_instructions", …), or "" for world info.
func CardField(e *schema.Entry) string { return cardField(e) }
