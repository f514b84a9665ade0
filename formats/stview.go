package formats

import "github.com/lorekit/lore/schema"

// STEntry is the SillyTavern world-info entry e stands for: the fields lore
// maps, overlaid on the fields kept under extensions at import, every other
// field at ST's new-entry default — the entry `lore export --to sillytavern`
// writes. The sillytavern engine reads its fields from here, so that a book
// rendered directly and the same book imported render alike (one mapping,
// shared with export). The map is the caller's to keep.
func STEntry(e *schema.Entry) map[string]any { return stFields(e) }

// CardField is the character card field an entry was made from at import
// ("description", "personality", "scenario", "first_mes", "mes_example",
// "system_prompt", "post_history_instructions", …), or "" for world info.
func CardField(e *schema.Entry) string { return cardField(e) }
