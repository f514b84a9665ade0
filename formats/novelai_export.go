package formats

import (
	"crypto/sha1"
	"fmt"
	"math"
	"sort"

	"github.com/lorekit/lore/schema"
)

// naiVersion is the lorebookVersion lore writes for a book that did not come
// from NovelAI: the newest it reads (categories by id, advancedConditions).
const naiVersion = 6

// NovelAI inserts context entries by budgetPriority, highest first, each at
// its insertionPosition in what is there so far (0 the top, -1 the bottom,
// -n n-1 lines above it). Memory goes in at 800, lorebook entries at 400,
// the story at 0, the Author's Note at -400. lore's prompt order is kept by
// giving each part of it a band of priorities:
//
//	top (system presets, then examples)  601…799  insertionPosition 0
//	triggered cards                      400…1    insertionPosition -1
//	(the story, priority 0)
//	depth entries, then post-history    -1…-399   -(depth+2), -1
//
// Entries at the top go in last-first (each lands above the one before);
// cards go in first-first (each lands below); entries inside the story go
// in deepest first, so counting lines from the bottom is not thrown off by
// the ones already placed.
const (
	naiTopLow, naiTopHigh   = 601, 799
	naiCardHigh, naiCardLow = 400, 1
	naiChatHigh, naiChatLow = -1, -399
)

// naiPlace is where an entry goes in NovelAI's context; clamped says its
// band ran out, so it shares its priority with its neighbours.
type naiPlace struct {
	priority, position float64
	clamped            bool
}

// naiPlacement places every world-info entry of lb (see the bands above).
func naiPlacement(lb *schema.Lorebook) map[*schema.Entry]naiPlace {
	var top, cards, chat []*schema.Entry
	for _, e := range lb.Entries {
		if !isWorldInfo(e) {
			continue
		}
		switch {
		case e.Section == schema.SectionSystemPresets || e.Section == schema.SectionExamples:
			top = append(top, e)
		case e.Section == schema.SectionChatHistory && e.Depth == nil:
			cards = append(cards, e)
		default:
			chat = append(chat, e)
		}
	}
	sectionRank := map[string]int{schema.SectionSystemPresets: 0, schema.SectionExamples: 1}
	sort.SliceStable(top, func(i, j int) bool {
		a, b := top[i], top[j]
		if sectionRank[a.Section] != sectionRank[b.Section] {
			return sectionRank[a.Section] < sectionRank[b.Section]
		}
		return promptBefore(a, b)
	})
	sort.SliceStable(cards, func(i, j int) bool { return promptBefore(cards[i], cards[j]) })
	sort.SliceStable(chat, func(i, j int) bool {
		a, b := chat[i], chat[j]
		if da, db := naiDepth(a), naiDepth(b); da != db {
			return da > db
		}
		return promptBefore(a, b)
	})
	out := map[*schema.Entry]naiPlace{}
	for j, e := range top {
		p := naiTopLow + j
		out[e] = naiPlace{float64(min(p, naiTopHigh)), 0, p > naiTopHigh}
	}
	for j, e := range cards {
		p := naiCardHigh - j
		out[e] = naiPlace{float64(max(p, naiCardLow)), -1, p < naiCardLow}
	}
	for j, e := range chat {
		p := naiChatHigh - j
		out[e] = naiPlace{float64(max(p, naiChatLow)), float64(-naiDepth(e) - 2), p < naiChatLow}
	}
	return out
}

// naiDepth is an entry's depth inside the story: -1 for post-history (after
// the newest line, insertionPosition -1).
func naiDepth(e *schema.Entry) int {
	if e.Depth == nil {
		return -1
	}
	return max(*e.Depth, 0)
}

// promptBefore is lore's order inside a section: position, then id.
func promptBefore(a, b *schema.Entry) bool {
	if a.Position != b.Position {
		return a.Position < b.Position
	}
	return a.ID < b.ID
}

// naiKeepsPlace says whether an entry from NovelAI is still where its kept
// contextConfig puts it (lore's section and depth are what the import made
// of it): then the kept config is written back unchanged.
func naiKeepsPlace(e *schema.Entry, cc map[string]any) bool {
	if cc == nil {
		return false
	}
	prio, _ := cc["budgetPriority"].(float64)
	pos, hasPos := cc["insertionPosition"].(float64)
	switch {
	case prio >= 0 || !hasPos || pos >= 0:
		return e.Section == schema.SectionChatHistory && e.Depth == nil
	case pos == -1:
		return e.Section == schema.SectionPostHistory
	}
	return e.Section == schema.SectionChatHistory && e.Depth != nil && *e.Depth == int(-pos-2)
}

// naiBudgets are the token budgets lore's settings give an entry: a card
// may take the cards' share of what is available, a required piece the
// Required cap, and reserves it.
func naiBudgets(s schema.Settings, e *schema.Entry) (budget, reserved float64) {
	avail := float64(s.Available())
	if e.Section == schema.SectionChatHistory {
		return math.Max(1, math.Floor(s.Shares.Cards*avail+1e-9)), 0
	}
	b := math.Max(1, math.Floor(s.RequiredCap*avail+1e-9))
	return b, b
}

// naiContextConfig is the contextConfig lore writes for e at place p.
func naiContextConfig(s schema.Settings, e *schema.Entry, p naiPlace) *object {
	budget, reserved := naiBudgets(s, e)
	cc := newObject()
	cc.set("prefix", "")
	cc.set("suffix", "\n")
	cc.set("tokenBudget", budget)
	cc.set("reservedTokens", reserved)
	cc.set("budgetPriority", p.priority)
	cc.set("trimDirection", "trimBottom")
	cc.set("insertionType", "newline")
	cc.set("maximumTrimType", "sentence")
	cc.set("insertionPosition", p.position)
	return cc
}

// naiUUID is a name-based UUID (version 5 layout, SHA-1) for what NovelAI
// wants an id for and lore has none: the same book always gets the same ids.
func naiUUID(book, name string) string {
	h := sha1.Sum([]byte("lore\x00" + book + "\x00" + name))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// naiCategories builds the categories of the exported book: the kept ones,
// and one per first tag that names none of them. It returns the category
// value each tag is written as (an id from v5 on, the name in v4).
type naiCategories struct {
	version float64
	book    string
	list    []any
	byName  map[string]string
}

func newNAICategories(version float64, book string, kept []any) *naiCategories {
	c := &naiCategories{version: version, book: book, list: append([]any{}, kept...), byName: map[string]string{}}
	for _, k := range kept {
		m, _ := k.(map[string]any)
		name, _ := m["name"].(string)
		id, _ := m["id"].(string)
		if name != "" && id != "" {
			if _, dup := c.byName[name]; !dup {
				c.byName[name] = id
			}
		}
	}
	return c
}

// ref is what an entry's category field holds for a tag.
func (c *naiCategories) ref(tag string) string {
	if c.version < 5 {
		return tag
	}
	if id, ok := c.byName[tag]; ok {
		return id
	}
	id := naiUUID(c.book, "category\x00"+tag)
	c.byName[tag] = id
	sub := newObject()
	sub.set("text", "")
	sub.set("contextConfig", naiContextConfig(schema.DefaultSettings(), &schema.Entry{Section: schema.SectionChatHistory}, naiPlace{naiCardHigh, -1, false}))
	cat := newObject()
	cat.set("name", tag)
	cat.set("id", id)
	cat.set("enabled", true)
	cat.set("createSubcontext", false)
	cat.set("subcontextSettings", sub)
	cat.set("useCategoryDefaults", false)
	cat.set("categoryDefaults", map[string]any{})
	cat.set("categoryBiasGroups", []any{})
	c.list = append(c.list, cat)
	return id
}

// exportNovelAI writes lb as a NovelAI .lorebook: its world-info entries,
// placed and budgeted as lore would send them (docs/formats.md).
func exportNovelAI(lb *schema.Lorebook) []byte {
	kept, _ := lb.Manifest.Extensions[FormatNovelAI].(map[string]any)
	version := float64(naiVersion)
	if v, ok := kept["lorebookVersion"].(float64); ok {
		version = v
	}
	keptCats, _ := kept["categories"].([]any)
	cats := newNAICategories(version, lb.Manifest.Name, keptCats)
	places := naiPlacement(lb)
	entries := []any{}
	for _, e := range lb.Entries {
		if isWorldInfo(e) {
			entries = append(entries, naiEntryOut(lb, e, places[e], cats))
		}
	}
	root := newObject()
	root.set("lorebookVersion", version)
	root.set("entries", entries)
	settings, ok := kept["settings"]
	if !ok {
		settings = map[string]any{"orderByKeyLocations": false}
	}
	root.set("settings", settings)
	root.set("categories", cats.list)
	for _, k := range sortedKeys(kept) {
		if k != "entries" {
			if _, ok := root.vals[k]; !ok {
				root.set(k, kept[k])
			}
		}
	}
	return marshalJSON(root, "  ")
}

// naiEntryOut is e as a NovelAI lore entry: what it kept from NovelAI,
// overlaid with lore's text, name, keys, switches and place.
func naiEntryOut(lb *schema.Lorebook, e *schema.Entry, p naiPlace, cats *naiCategories) *object {
	kept, _ := e.Extensions[FormatNovelAI].(map[string]any)
	cc, _ := kept["contextConfig"].(map[string]any)
	o := newObject()
	o.set("text", originalContent(kept, e.Content))
	if naiKeepsPlace(e, cc) {
		o.set("contextConfig", cc)
	} else {
		o.set("contextConfig", naiContextConfig(lb.Manifest.Settings, e, p))
	}
	o.set("lastUpdatedAt", firstOf(kept["lastUpdatedAt"], 0.0))
	o.set("displayName", e.Name)
	o.set("id", firstOf(kept["id"], naiUUID(lb.Manifest.Name, "entry\x00"+e.ID)))
	o.set("keys", keywordTexts(e.Keywords))
	o.set("searchRange", firstOf(kept["searchRange"], float64(naiSearchRange)))
	o.set("enabled", e.Enabled)
	o.set("forceActivation", e.AlwaysSend)
	o.set("keyRelative", firstOf(kept["keyRelative"], false))
	o.set("nonStoryActivatable", !e.ExcludeRecursion && lb.Manifest.Settings.RecursionLimit > 0)
	category := firstOf(kept["category"], "")
	if len(e.Tags) > 0 && !naiSameCategory(category, e.Tags[0], cats) {
		category = cats.ref(e.Tags[0])
	} else if len(e.Tags) == 0 {
		category = ""
	}
	o.set("category", category)
	o.set("loreBiasGroups", firstOf(kept["loreBiasGroups"], []any{}))
	if cats.version >= 6 {
		o.set("advancedConditions", firstOf(kept["advancedConditions"], []any{}))
	}
	for _, k := range sortedKeys(kept) {
		if _, ok := o.vals[k]; !ok && k != "lineEndings" && k != "content" {
			o.set(k, kept[k])
		}
	}
	return o
}

// naiSameCategory says whether the kept category value still names tag.
func naiSameCategory(kept any, tag string, cats *naiCategories) bool {
	s, _ := kept.(string)
	return s != "" && (s == tag || cats.byName[tag] == s)
}
