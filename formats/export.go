package formats

import (
	"strconv"
	"strings"

	"github.com/lorekit/lore/schema"
)

// stTemplate is SillyTavern's new-entry template (world-info.js
// newWorldInfoEntryDefinition), in its order: every field ST writes, with its
// default, so an exported file looks like one ST saved.
var stTemplate = []struct {
	key string
	def any
}{
	{"uid", 0.0}, {"key", []any{}}, {"keysecondary", []any{}}, {"comment", ""}, {"content", ""},
	{"constant", false}, {"vectorized", false}, {"selective", true}, {"selectiveLogic", 0.0},
	{"addMemo", false}, {"order", 100.0}, {"position", 0.0}, {"disable", false},
	{"ignoreBudget", false}, {"excludeRecursion", false}, {"preventRecursion", false},
	{"matchPersonaDescription", false}, {"matchCharacterDescription", false},
	{"matchCharacterPersonality", false}, {"matchCharacterDepthPrompt", false},
	{"matchScenario", false}, {"matchCreatorNotes", false}, {"delayUntilRecursion", 0.0},
	{"probability", 100.0}, {"useProbability", true}, {"depth", 4.0}, {"outletName", ""},
	{"group", ""}, {"groupOverride", false}, {"groupWeight", 100.0}, {"scanDepth", nil},
	{"caseSensitive", nil}, {"matchWholeWords", nil}, {"useGroupScoring", nil},
	{"automationId", ""}, {"role", 0.0}, {"sticky", nil}, {"cooldown", nil}, {"delay", nil},
	{"triggers", []any{}}, {"displayIndex", 0.0},
}

// cardOrigin returns the card format an entry came from and its kept fields.
func cardOrigin(e *schema.Entry) (string, map[string]any) {
	for _, f := range []string{FormatCardV3, FormatCardV2, FormatLorebookV3} {
		if m, ok := e.Extensions[f].(map[string]any); ok {
			return f, m
		}
	}
	return "", nil
}

// cardField is the card field an entry was made from ("description"…), or "".
func cardField(e *schema.Entry) string {
	_, m := cardOrigin(e)
	s, _ := m["field"].(string)
	return s
}

// isWorldInfo says whether e is a world-info entry: not made from a card's
// own fields, not the chat's opening message. Only those go in a world-info
// book (SillyTavern's, a card's character_book, NovelAI's lorebook).
func isWorldInfo(e *schema.Entry) bool {
	return cardField(e) == "" && e.Role != "greeting"
}

func snakeToCamel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func camelToSnake(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// stFields is the SillyTavern entry for e: the fields kept at import,
// overlaid with everything lore's model says, ST's defaults for the rest.
// The rules are the inverse of mapST and are documented in docs/formats.md.
func stFields(e *schema.Entry) map[string]any {
	st := stKept(e)
	fromST := stOrigin(e)
	keptPos := -1
	if p, ok := st["position"].(float64); ok {
		keptPos = int(p)
	} else if _, ok := st["position"]; !ok && fromST {
		keptPos = stBeforeChar // an ST entry without a position: ST's new-entry default
	}
	_, keptDisable := st["disable"]
	stSetMapped(st, e, fromST)
	pos := stPositionFor(st, e, keptPos)
	st["position"] = float64(pos)
	st["disable"] = stDisable(st, e, pos, keptDisable || !fromST)
	for _, t := range stTemplate {
		if _, ok := st[t.key]; !ok && t.key != "uid" && t.key != "displayIndex" {
			st[t.key] = t.def // uid and displayIndex: stEntries numbers them
		}
	}
	return st
}

// stKept is what the entry kept of its SillyTavern fields: an ST entry's
// extensions.sillytavern as is, or a card entry's fields seen with ST's
// names (its extensions in camelCase, its enabled as disable).
func stKept(e *schema.Entry) map[string]any {
	// Sized for every field of an exported entry: stFields adds the
	// template's defaults, and growing the map on the way cost a third of
	// building it.
	st := make(map[string]any, len(stTemplate)+4)
	if m, ok := e.Extensions[FormatSillyTavern].(map[string]any); ok {
		for k, v := range m {
			st[k] = v
		}
		return st
	}
	_, card := cardOrigin(e)
	if card == nil {
		return st
	}
	if x, ok := card["extensions"].(map[string]any); ok {
		for k, v := range x {
			st[snakeToCamel(k)] = v
		}
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
	return st
}

// stSetMapped writes the fields lore maps one to one.
func stSetMapped(st map[string]any, e *schema.Entry, fromST bool) {
	st["key"] = anyStrings(keywordTexts(e.Keywords))
	if len(e.SecondaryKeywords) > 0 {
		st["keysecondary"] = anyStrings(keywordTexts(e.SecondaryKeywords))
		st["selective"] = true
		// A selectiveLogic SillyTavern does not know (it never activates the
		// entry) stays as it was, until lore's logic is written explicitly:
		// lore's AND_ANY default is not what ST does with it.
		if i := stLogicIndex(e.SecondaryKeywordLogic); i >= 0 && (e.Has("secondaryKeywordLogic") || !unknownLogic(st["selectiveLogic"])) {
			st["selectiveLogic"] = float64(i)
		}
	} else if _, ok := st["keysecondary"]; !ok {
		st["keysecondary"] = []any{}
	}
	st["comment"] = stComment(st, e)
	st["content"] = originalContent(st, e.Content)
	delete(st, "lineEndings") // lore's note, not a SillyTavern field
	st["constant"] = e.AlwaysSend
	st["order"] = float64(e.Position)
	st["excludeRecursion"] = e.ExcludeRecursion
	st["preventRecursion"] = e.PreventRecursion
	switch {
	case e.MatchWholeWords || st["matchWholeWords"] != nil:
		st["matchWholeWords"] = e.MatchWholeWords
	case fromST && !e.Has("matchWholeWords"):
		// An ST entry that never said follows ST's global setting (null):
		// left as it came, absent or null.
	default:
		if _, ok := st["matchWholeWords"]; !ok {
			st["matchWholeWords"] = false // lore's default, said in ST's terms
		}
	}
}

// stOrigin says the entry came from a SillyTavern book or a card: a field it
// never had keeps SillyTavern's meaning of a missing field.
func stOrigin(e *schema.Entry) bool {
	if _, ok := e.Extensions[FormatSillyTavern].(map[string]any); ok {
		return true
	}
	_, card := cardOrigin(e)
	return card != nil
}

// unknownLogic is a kept selectiveLogic that is not one of ST's four.
func unknownLogic(v any) bool {
	l, ok := v.(float64)
	return ok && (l < 0 || l >= float64(len(stLogic)) || l != float64(int(l)))
}

// stComment is the comment written for e: its name, or the empty comment
// it came with while lore's name is still the id made from nothing.
func stComment(kept map[string]any, e *schema.Entry) any {
	if c, ok := kept["comment"].(string); ok && c == "" && e.Name == e.ID {
		return ""
	}
	return e.Name
}

func stLogicIndex(logic string) int {
	for i, l := range stLogic {
		if l == logic {
			return i
		}
	}
	return -1
}

// stPositionFor decides ST's position (and depth and role, where they mean
// something) from lore's section and depth; keptPos is the position the
// entry came with, -1 for none. The section alone cannot tell 0 from 1,
// 2 from 3, 5 from 6, so the kept position decides between them.
func stPositionFor(st map[string]any, e *schema.Entry, keptPos int) int {
	pos := keptPos
	switch e.Section {
	case schema.SectionChatHistory:
		if e.Depth != nil {
			st["depth"] = float64(max(*e.Depth, 0) + 1) // lore's depth d is ST's d+1
			st["role"] = stRoleIndex(st, e)
			return stAtDepth
		}
		if pos != stBeforeChar && pos != stAfterChar && pos != stOutlet && !stUnknownPosition(pos) {
			return stAfterChar // the triggered block follows the character definitions
		}
	case schema.SectionPostHistory:
		d, _ := st["depth"].(float64)
		switch {
		case pos == stANTop || pos == stANBottom:
		case pos == stAtDepth && d == 0:
			st["role"] = stRoleIndex(st, e)
		default:
			// After the newest message, as post-history is.
			st["depth"] = 0.0
			st["role"] = stRoleIndex(st, e)
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

// stUnknownPosition is a position SillyTavern has no insertion point for (it
// activates such an entry and sends it nowhere). Import reads it as a story
// card in chat-history; while the entry stays there, export and the
// sillytavern engine keep the position as written, so the book means in lore
// what it means in SillyTavern.
func stUnknownPosition(pos int) bool { return pos > stOutlet || pos < -1 }

// stRoleIndex is ST's role number for e's apiRole; a kept null (ST's
// "system") stays null while lore's apiRole is still system.
func stRoleIndex(st map[string]any, e *schema.Entry) any {
	if r, kept := st["role"]; kept && r == nil && e.APIRole == "system" {
		return nil
	}
	for i, r := range stRoles {
		if r == e.APIRole {
			return float64(i)
		}
	}
	return 0.0
}

// stDisable is ST's disable for e at pos. Outlets are imported disabled
// (lore does not expand {{outlet::}}), so for them lore's enabled: false
// means "as it was": the kept state is written back; enabled: true enables.
// An outlet is imported disabled (lore has none); its real state is the
// disable it came with, and an ST outlet that had none is enabled. knownState
// says the kept disable (or the entry's lore origin) decides.
func stDisable(st map[string]any, e *schema.Entry, pos int, knownState bool) bool {
	if pos == stOutlet && !e.Enabled {
		if kept, ok := st["disable"].(bool); ok {
			return kept
		}
		if !knownState {
			return false
		}
	}
	return !e.Enabled
}

func anyStrings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func keywordTexts(ks []schema.Keyword) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Text
	}
	return out
}

// orderedST is st as an object in ST's template order, other keys after, sorted.
func orderedST(st map[string]any) *object {
	o := newObject()
	for _, t := range stTemplate {
		if v, ok := st[t.key]; ok {
			o.set(t.key, v)
		}
	}
	o.setAll(st)
	return o
}

// exportSillyTavern writes lb as a SillyTavern world-info file: every
// world-info entry (isWorldInfo), with the uid it came with when it is free.
func exportSillyTavern(lb *schema.Lorebook) []byte {
	root := newObject()
	if lb.Manifest.Name != "" {
		root.set("name", lb.Manifest.Name)
	}
	if lb.Manifest.Description != "" {
		root.set("description", lb.Manifest.Description)
	}
	if x, ok := lb.Manifest.Extensions[FormatSillyTavern].(map[string]any); ok {
		for _, k := range sortedKeys(x) {
			switch k {
			case "name", "description", "entries":
			case "originalData":
				// The card book ST imported this world from: rebuilt from
				// the entries, so it never says something they no longer do.
				root.set(k, cardBook(lb, FormatCardV3))
			default:
				root.set(k, x[k])
			}
		}
	}
	switch b, kept := root.vals["recursive_scanning"].(bool); {
	case lb.Manifest.Settings.RecursionLimit == 0:
		root.set("recursive_scanning", false) // lore reads it back; ST's recursion is a global setting
	case kept && !b:
		root.set("recursive_scanning", true) // lore's setting was changed since
	}
	ents := newObject()
	for _, st := range stEntries(lb) {
		ents.set(uidString(st["uid"]), orderedST(st))
	}
	root.set("entries", ents)
	return marshalJSON(root, "    ")
}

// stEntries is the ST entry of every world-info entry of lb, in order, each
// with a unique uid: its own when free, else the lowest free number.
func stEntries(lb *schema.Lorebook) []map[string]any {
	var out []map[string]any
	var kept []any
	for _, e := range lb.Entries {
		if isWorldInfo(e) {
			st := stFields(e)
			out = append(out, st)
			kept = append(kept, st["uid"])
		}
	}
	for i, u := range stUIDs(kept) {
		out[i]["uid"] = u
		if _, ok := out[i]["displayIndex"]; !ok {
			out[i]["displayIndex"] = float64(i)
		}
	}
	return out
}

// stUIDs gives each entry its kept uid when it is one and free, the others
// the lowest free numbers, in order.
func stUIDs(kept []any) []any {
	used := map[string]bool{}
	out := make([]any, len(kept))
	for i, k := range kept {
		if u := uidString(k); u != "" && !used[u] {
			used[u] = true
			out[i] = k
		}
	}
	next := 0
	for i := range out {
		if out[i] == nil {
			for used[strconv.Itoa(next)] {
				next++
			}
			used[strconv.Itoa(next)] = true
			out[i] = float64(next)
		}
	}
	return out
}

func uidString(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	}
	return ""
}
