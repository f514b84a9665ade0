package render

import "github.com/lorekit/lore/schema"

// Preset is one of the built-in prompt texts a manifest may switch on with
// `presets: [...]` (SPEC §3). Presets are not entries: they have no id in the
// lorebook, never appear in `activated`, and are named "preset:<name>" in
// `sources` so a reader can tell them from the creator's own text.
type Preset struct {
	Name     string
	Section  string // system-presets or post-history
	Position int
	APIRole  string
	Content  string // may use macros; expanded like entry content
}

// Source is how the preset is named in `sources` and in the budget's `dropped`.
func (p Preset) Source() string { return "preset:" + p.Name }

// presets are SPEC §3's five built-ins. The texts are ours: short, imperative,
// and written for a narrator model, because every token of a preset is paid on
// every turn.
var presets = []Preset{
	{
		Name: "fiction-mode", Section: schema.SectionSystemPresets, Position: 0, APIRole: "system",
		Content: "This is a collaborative work of interactive fiction. Everything in it is " +
			"imaginary and takes place inside the story. Stay in the fiction: write as the " +
			"story itself, never as an AI assistant, and do not comment on the story from " +
			"outside unless {{user}} asks out of character, in (OOC: ...).",
	},
	{
		Name: "task", Section: schema.SectionSystemPresets, Position: 1, APIRole: "system",
		Content: "You are the narrator. You describe the world and voice {{char}} and every " +
			"other character in it; {{user}} alone decides what their own character says, " +
			"does and thinks. Continue the story from {{user}}'s latest message.",
	},
	{
		Name: "instructions", Section: schema.SectionSystemPresets, Position: 2, APIRole: "system",
		Content: "Show, don't tell: convey feelings and intentions through actions, speech " +
			"and sensory detail instead of naming them. Never write {{user}}'s actions, " +
			"words or thoughts. End each reply mid-scene, at a moment that invites {{user}} " +
			"to act, without summarising or wrapping the scene up.",
	},
	{
		Name: "style", Section: schema.SectionSystemPresets, Position: 3, APIRole: "system",
		Content: "Characters have independent voices: their own vocabulary, rhythm, goals " +
			"and opinions. They know only what they have seen or been told, they may " +
			"disagree with {{user}} and with each other, and they act on their own " +
			"motives even when nobody is watching.",
	},
	{
		Name: "cot-bypass", Section: schema.SectionPostHistory, Position: 0, APIRole: "user",
		Content: "[Reply in character now. Do not plan, reason or explain before the reply; " +
			"begin directly with the story.]",
	},
}

// PresetNames lists the built-in presets in SPEC §3's order (for lint and the
// JSON Schema's enum).
func PresetNames() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.Name
	}
	return out
}

// LookupPreset returns the built-in preset with that name.
func LookupPreset(name string) (Preset, bool) {
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// EnabledPresets returns the manifest's presets of one section, each once, in
// the manifest's order; unknown names are skipped (schema validation reports
// them, and a render should still show the rest of the prompt).
func EnabledPresets(m *schema.Manifest, section string) []Preset {
	var out []Preset
	seen := map[string]bool{}
	for _, k := range m.Presets {
		p, ok := LookupPreset(k.Text)
		if !ok || seen[p.Name] || p.Section != section {
			continue
		}
		seen[p.Name] = true
		out = append(out, p)
	}
	return out
}
