package formats

import "github.com/lorekit/lore/schema"

// STEntry is the SillyTavern world-info entry e stands for: the fields lore
// maps, overlaid on the fields kept under extensions at import, every other
// field at ST's new-entry default — the entry `lore export --to sillytavern`
// writes. The sillytavern engine reads its fields from here, so that a book
// rendered directly and the same book imported render alike (one mapping,
// shared with export). The map is the caller's to keep.
func STEntry(e *schema.Entry) map[string]any {
	st := stFields(e)
	// An entry that never said matchWholeWords follows the global setting
	// (ST's null), whose shipped value is true; stFields writes false for a
	// lore entry that leaves it out, which is lore's default, not ST's.
	kept, _ := e.Extensions[FormatSillyTavern].(map[string]any)
	if _, ok := kept["matchWholeWords"]; !ok && !e.Has("matchWholeWords") && !e.MatchWholeWords {
		st["matchWholeWords"] = nil
	}
	// An ST entry without a position is before the character definitions
	// (ST's 0); stFields gives lore's triggered block its after-char place.
	if _, ok := kept["position"]; kept != nil && !ok && e.Section == schema.SectionChatHistory && e.Depth == nil {
		st["position"] = float64(stBeforeChar)
	}
	// A selectiveLogic SillyTavern does not know (it never activates the
	// entry) is kept as it was: lore's AND_ANY default is not what ST does.
	if l, ok := kept["selectiveLogic"].(float64); ok && (l < 0 || l >= float64(len(stLogic)) || l != float64(int(l))) {
		st["selectiveLogic"] = l
	}
	// An outlet entry is enabled unless it says otherwise (import marks it
	// disabled in lore, which has no outlets).
	if _, ok := kept["disable"]; kept != nil && !ok && st["position"] == float64(stOutlet) {
		st["disable"] = false
	}
	return st
}

// CardField is the character card field an entry was made from at import
// ("description", "personality", "scenario", "first_mes", "mes_example",
// "system_prompt", "post_history_instructions", …), or "" for world info.
func CardField(e *schema.Entry) string { return cardField(e) }
