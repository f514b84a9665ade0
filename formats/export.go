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
	var v STEntry // on the stack: Map is all export wants of it
	v.init(e, "", true)
	return v.Map()
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
		if kept, ok := st["disable"]; ok {
			return jsLooseTrue(kept) // SillyTavern's `disable == true`
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
