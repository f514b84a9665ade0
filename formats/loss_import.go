package formats

import (
	"strings"

	"github.com/lorekit/lore/schema"
)

// ImportLosses is what lore's engine will not act on, or will read
// differently, in a lorebook read from another format: every kept field
// (under extensions.<format>) whose value does something in its tool, and
// every value the import had to move. Kept fields at their no-op default
// are not losses. It reads only the lorebook, so it says the same of a book
// imported long ago and of one just converted.
func ImportLosses(lb *schema.Lorebook) []Loss {
	var out []Loss
	for _, e := range lb.Entries {
		for _, f := range sortedKeys(e.Extensions) {
			m, ok := e.Extensions[f].(map[string]any)
			if !ok {
				continue
			}
			k := kept{e: e, format: f, m: m}
			if stFamily[f] {
				k.st = stKeptView(e, f)
			}
			switch f {
			case FormatSillyTavern:
				out = append(out, actedOn(k.stLosses(), FormatSillyTavern)...)
			case FormatCardV2, FormatCardV3, FormatLorebookV3:
				out = append(out, actedOn(k.stLosses(), FormatSillyTavern)...)
				out = append(out, k.cardEntryLosses()...)
			case FormatNovelAI:
				out = append(out, k.novelAILosses()...)
			case FormatRisu:
				out = append(out, k.risuLosses()...)
			case FormatAgnai:
				if p, ok := m["priority"].(float64); ok && p != 0 {
					out = append(out, k.loss("priority", p, LossIgnored,
						"Agnai drops low-priority memories first; lore's budget ranks cards by its own rules",
						"nothing, unless the book relies on it: then raise the cards share so nothing is dropped"))
				}
			case FormatAIDungeon:
				if l, ok := k.ewiKeysLoss(); ok {
					out = append(out, l)
				}
				if a, ok := m["keyAttributes"].([]any); ok && len(a) > 0 {
					out = append(out, k.loss("keyAttributes", a, LossIgnored,
						"AI Dungeon's #[...] key attributes (EWIJSON) are not read by lore",
						"nothing: lore matches the keys without them"))
				}
			}
		}
	}
	out = append(out, bookImportLosses(lb)...)
	sortLosses(out)
	return out
}

// actedOn marks losses of kept SillyTavern fields: the sillytavern engine
// reads them (STEntry) and does what SillyTavern does.
func actedOn(ls []Loss, engine string) []Loss {
	for i := range ls {
		ls[i].ActedOn = engine
	}
	return ls
}

// kept is one entry's kept fields of one format.
type kept struct {
	e      *schema.Entry
	format string
	m      map[string]any
	st     stKeptFields // they seen as ST's fields (ST and cards: STEntry.Kept)
}

// loss is a loss of field (as the source names it) on k's entry, at the
// field's position in the source when the import recorded it.
func (k kept) loss(field string, v any, kind, reason, fix string) Loss {
	return Loss{Entry: k.e.ID, Field: field, Value: short(v), Kind: kind, Reason: reason, Fix: fix,
		Pos: k.e.FieldPos("extensions." + k.format + "." + field)}
}

// truthy is a value that switches something on: true, a non-zero number,
// a non-empty string, list or object.
func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return false
}

// stRule is a SillyTavern feature lore has no place for: the names of its
// field, whether a value uses it, and what the report says.
type stRule struct {
	names       []string
	used        func(v any) bool
	reason, fix string
}

var stRules = []stRule{
	{[]string{"group"}, truthy,
		"inclusion group: SillyTavern sends one entry of a group, lore every entry that triggers",
		"merge the group's entries into one, or keep one of them enabled"},
	{[]string{"sticky"}, truthy, "timed effect: lore renders one turn and keeps no timers",
		"gate the entry with a condition on a variable your app counts turns with"},
	{[]string{"cooldown"}, truthy, "timed effect: lore renders one turn and keeps no timers",
		"gate the entry with a condition on a variable your app counts turns with"},
	{[]string{"delay"}, truthy, "timed effect: lore renders one turn and keeps no timers",
		"gate the entry with a condition on a variable your app counts turns with"},
	{[]string{"delayUntilRecursion", "delay_until_recursion"}, truthy,
		"delayed until recursion: lore scans every recursion level alike", "remove it, or accept that the entry can trigger at once"},
	{[]string{"scanDepth", "scan_depth"}, func(v any) bool { _, ok := v.(float64); return ok },
		"per-entry scan depth: lore scans the same window for every entry (its budget sets it)",
		"remove it; raise the cards share to scan more messages"},
	{[]string{"caseSensitive", "case_sensitive"}, func(v any) bool { return v == true },
		"case-sensitive matching: lore matches keywords case-insensitively",
		"write each keyword that must match case as a /regex/ without the i flag"},
	{[]string{"automationId", "automation_id"}, truthy, "automation id: lore runs no automations", "none needed: lore sends the entry as text"},
	{[]string{"vectorized"}, truthy, "vector-matched entry: lore matches keywords only",
		"add keywords for what the vector search found"},
	{[]string{"triggers"}, truthy, "generation-type triggers: lore renders one kind of turn and sends the entry on every kind",
		"remove them, or gate the entry with a condition"},
	{[]string{"ignoreBudget", "ignore_budget"}, truthy, "ignores SillyTavern's budget: lore's budget can still leave it out",
		"set alwaysSend, or raise the cards share"},
	{[]string{"matchPersonaDescription", "match_persona_description"}, truthy, "keywords also searched in the character's fields: lore searches the chat only", "add the words to the chat-facing keywords or make the entry alwaysSend"},
	{[]string{"matchCharacterDescription", "match_character_description"}, truthy, "keywords also searched in the character's fields: lore searches the chat only", "add the words to the chat-facing keywords or make the entry alwaysSend"},
	{[]string{"matchCharacterPersonality", "match_character_personality"}, truthy, "keywords also searched in the character's fields: lore searches the chat only", "add the words to the chat-facing keywords or make the entry alwaysSend"},
	{[]string{"matchCharacterDepthPrompt", "match_character_depth_prompt"}, truthy, "keywords also searched in the character's fields: lore searches the chat only", "add the words to the chat-facing keywords or make the entry alwaysSend"},
	{[]string{"matchScenario", "match_scenario"}, truthy, "keywords also searched in the character's fields: lore searches the chat only", "add the words to the chat-facing keywords or make the entry alwaysSend"},
	{[]string{"matchCreatorNotes", "match_creator_notes"}, truthy, "keywords also searched in the character's fields: lore searches the chat only", "add the words to the chat-facing keywords or make the entry alwaysSend"},
	{[]string{"characterFilter", "character_filter"}, func(v any) bool {
		m, _ := v.(map[string]any)
		return truthy(m["names"]) || truthy(m["tags"])
	}, "character filter: lore's book belongs to one character", "remove the filter, or split the book per character"},
}

// stLosses are the SillyTavern features an entry (from ST or a card) uses
// that lore does not act on, and the ST positions lore had to move.
func (k kept) stLosses() []Loss {
	var out []Loss
	if p, field, ok := k.st.Kept("probability"); ok {
		use, _, had := k.st.Kept("useProbability", "use_probability")
		if f, isNum := p.(float64); isNum && f < 100 && (!had || truthy(use)) {
			out = append(out, k.loss(field, p, LossIgnored,
				"activation probability: lore's engine is deterministic and sends the entry every time it triggers",
				"gate the entry with a condition on a variable your app rolls, or accept that it always fires"))
		}
	}
	for _, r := range stRules {
		if v, field, ok := k.st.Kept(r.names...); ok && r.used(v) {
			out = append(out, k.loss(field, v, LossIgnored, r.reason, r.fix))
		}
	}
	if l, ok := k.stPositionLoss(); ok {
		out = append(out, l)
	}
	if v, field, ok := k.st.Kept("selectiveLogic", "selective_logic"); ok {
		if f, isNum := v.(float64); isNum && (f < 0 || int(f) >= len(stLogic) || f != float64(int(f))) {
			out = append(out, k.loss(field, v, LossChanged, "unknown selectiveLogic: lore uses AND_ANY",
				"set secondaryKeywordLogic to the logic you meant"))
		}
	}
	return out
}

// stPositionLoss reports an ST position lore has no place for: outlets
// (imported disabled), the Author's Note's top and bottom (lore's author's
// note is after the newest message), unknown numbers.
func (k kept) stPositionLoss() (Loss, bool) {
	v, field, ok := k.st.Kept("position")
	p, isNum := v.(float64)
	if !ok || !isNum {
		return Loss{}, false
	}
	var l Loss
	switch int(p) {
	case stOutlet:
		if k.e.Enabled {
			return Loss{}, false // enabled in lore: the creator chose to send it
		}
		l = k.loss(field, p, LossChanged,
			"outlet entry: SillyTavern sends it only where {{outlet::name}} stands, and lore does not expand that macro: imported disabled (export restores it)",
			"paste its text where the macro is, or set enabled: true to send it as a card")
		l.Target = "enabled: false"
	case stANTop, stANBottom:
		if k.e.Section != schema.SectionPostHistory {
			return Loss{}, false
		}
		l = k.loss(field, p, LossChanged,
			"Author's Note top/bottom: SillyTavern puts it around the Author's Note (in the chat at the note's depth, 4 by default); lore's author's note is post-history, after the newest message",
			"give it a depth (chat-history, depth: 3 for the note's default) to keep it inside the chat")
		l.Target = "post-history"
	case stBeforeChar, stAfterChar, stAtDepth, stBeforeExample, stAfterExample:
		return Loss{}, false
	default:
		l = k.loss(field, p, LossChanged, "unknown SillyTavern position: read as a chat-history card",
			"set the section and depth you meant")
		l.Target = "chat-history"
	}
	return l, true
}

// cardEntryLosses are a card entry's own fields lore does not read.
func (k kept) cardEntryLosses() []Loss {
	var out []Loss
	if v, ok := k.m["use_regex"]; ok && v == true && len(k.e.Keywords) > 0 {
		out = append(out, k.loss("use_regex", v, LossIgnored,
			"use_regex: the card's keys are regular expressions; lore reads a key as one only when written /pattern/flags",
			"write each key as /pattern/flags"))
	}
	if ds, ok := k.m["decorators"].([]any); ok && len(ds) > 0 {
		l := k.loss("decorators", strings.Join(anyTexts(ds), " "), LossIgnored,
			"V3 @@decorators: lore does not read them (taken off the content, kept, put back by export to a V3 card)",
			"say what they did with lore's fields (depth, apiRole, alwaysSend)")
		l.Pos = k.e.FieldPos("content")
		out = append(out, l)
	}
	return out
}

func anyTexts(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = short(v)
	}
	return out
}

// naiContextDefaults is NovelAI's default contextConfig of a lore entry.
var naiContextDefaults = map[string]any{"prefix": "", "suffix": "\n", "reservedTokens": 0.0,
	"budgetPriority": 400.0, "trimDirection": "trimBottom", "insertionType": "newline",
	"maximumTrimType": "sentence", "insertionPosition": -1.0}

// novelAILosses are the NovelAI features an entry uses that lore does not
// act on: its context settings, search range, biases, conditions.
func (k kept) novelAILosses() []Loss {
	var out []Loss
	cc, _ := k.m["contextConfig"].(map[string]any)
	placed := k.e.Depth != nil || k.e.Section == schema.SectionPostHistory // mapped from the priority and position
	for _, key := range sortedKeys(cc) {
		v := cc[key]
		field := "contextConfig." + key
		switch key {
		case "prefix", "suffix":
			if v != naiContextDefaults[key] {
				out = append(out, k.loss(field, v, LossIgnored, "text NovelAI puts around the entry: lore sends the content alone",
					"put the text into the content"))
			}
		case "tokenBudget":
			if f, ok := v.(float64); ok && (f < naiMaxTokens || f != float64(int(f))) {
				out = append(out, k.loss(field, v, LossIgnored,
					"NovelAI trims the entry to its token budget; lore sends a card whole, or leaves it out when the cards share is full",
					"shorten the content to what the budget allowed"))
			}
		case "reservedTokens":
			if f, ok := v.(float64); ok && f > 0 {
				out = append(out, k.loss(field, v, LossIgnored, "reserved tokens: lore's budget reserves nothing per card",
					"set alwaysSend if the entry must always fit"))
			}
		case "budgetPriority":
			if f, ok := v.(float64); ok && f != 400 && !placed {
				out = append(out, k.loss(field, v, LossIgnored,
					"budget priority: NovelAI inserts and budgets higher priorities first; lore orders cards by position (the place in the file) and ranks them by its own rules",
					"move the entry in the file, or set position"))
			}
		case "insertionPosition":
			if f, ok := v.(float64); ok && f != -1 && !placed {
				l := k.loss(field, v, LossChanged,
					"insertion position: NovelAI puts the entry that many units from the top (or bottom) of the context; lore puts it in the triggered block, before the chat",
					"give it a depth if it belongs inside the chat")
				l.Target = "chat-history, depth: null"
				out = append(out, l)
			}
		case "insertionType":
			if v != "newline" && placed {
				out = append(out, k.loss(field, v, LossChanged,
					"NovelAI counts the insertion position in sentences or tokens; lore's depth counts messages",
					"check the depth"))
			}
		case "trimDirection", "maximumTrimType":
			if v != naiContextDefaults[key] {
				out = append(out, k.loss(field, v, LossIgnored, "trimming: lore never trims a card", ""))
			}
		}
	}
	if r, ok := k.m["searchRange"].(float64); ok && r != naiSearchRange {
		out = append(out, k.loss("searchRange", r, LossIgnored,
			"search range: NovelAI looks for the keys in that many characters of the story; lore scans its window of messages",
			"raise or lower the cards share to scan more or fewer messages"))
	}
	if v := k.m["keyRelative"]; v == true {
		out = append(out, k.loss("keyRelative", v, LossIgnored, "key-relative insertion: lore does not place an entry next to its key",
			"give it a depth if it belongs inside the chat"))
	}
	if gs, ok := k.m["loreBiasGroups"].([]any); ok && biasUsed(gs) {
		out = append(out, k.loss("loreBiasGroups", gs, LossIgnored, "phrase biases: lore builds prompts and sets no token biases",
			"bias the phrases in the app that sends the prompt"))
	}
	if v, ok := k.m["advancedConditions"].([]any); ok && len(v) > 0 {
		out = append(out, k.loss("advancedConditions", v, LossIgnored, "NovelAI's advanced conditions: lore does not read them",
			"write them as lore conditions on variables"))
	}
	return out
}

// biasUsed says whether any bias group has a phrase.
func biasUsed(groups []any) bool {
	for _, g := range groups {
		if m, ok := g.(map[string]any); ok && truthy(m["phrases"]) {
			return true
		}
	}
	return false
}

// risuLosses are the RisuAI features an entry uses that lore does not act on.
func (k kept) risuLosses() []Loss {
	var out []Loss
	if v := k.m["useRegex"]; v == true {
		out = append(out, k.loss("useRegex", v, LossIgnored,
			"useRegex: the keys are regular expressions in RisuAI; lore reads a key as one only when written /pattern/flags",
			"write each key as /pattern/flags"))
	}
	if p, ok := k.m["activationPercent"].(float64); ok && p < 100 {
		out = append(out, k.loss("activationPercent", p, LossIgnored,
			"activation probability: lore's engine is deterministic and sends the entry every time it triggers",
			"gate the entry with a condition on a variable your app rolls, or accept that it always fires"))
	}
	if x, ok := k.m["extentions"].(map[string]any); ok && x["risu_case_sensitive"] == true {
		out = append(out, k.loss("extentions.risu_case_sensitive", true, LossIgnored,
			"case-sensitive matching: lore matches keywords case-insensitively",
			"write each keyword that must match case as a /regex/ without the i flag"))
	}
	if m, ok := k.m["mode"].(string); ok && m != "normal" && m != "" && !(m == "constant" && k.e.AlwaysSend) {
		out = append(out, k.loss("mode", m, LossIgnored, "RisuAI entry mode: lore reads alwaysActive and the keys only",
			"check alwaysSend and the keywords"))
	}
	if strings.HasPrefix(k.e.Content, "@@") {
		l := k.loss("content", strings.SplitN(k.e.Content, "\n", 2)[0], LossChanged,
			"@@decorators: RisuAI reads them, lore sends them as text",
			"say what they did with lore's fields (depth, apiRole, alwaysSend) and delete them")
		l.Pos = k.e.FieldPos("content")
		out = append(out, l)
	}
	return out
}

// ewiKeysLoss is the note of an AI Dungeon entry whose keys EWIJSON reads
// as regular expressions: lore wrote them as what they match
// (aidungeon_ewi.go), which is a change of form the creator should check.
func (k kept) ewiKeysLoss() (Loss, bool) {
	keys, _ := k.m["keys"].(string)
	if _, ok := k.m["keyAttributes"]; !ok || keys == "" {
		return Loss{}, false
	}
	parts, _, _, ewi := aidKeyParts(strings.Split(keys, ","))
	if ewi == len(parts) && !ewiChanged(parts) {
		return Loss{}, false
	}
	target := strings.Join(keywordTexts(k.e.Keywords), ", ")
	if len(k.e.SecondaryKeywords) > 0 {
		target += " + all of " + strings.Join(keywordTexts(k.e.SecondaryKeywords), ", ")
	}
	l := k.loss("keys", strings.Join(parts, ", "), LossChanged,
		"EWIJSON keys are case-insensitive regular expressions, comma-separated parts all required, all after the first #[...] attributes: written as the keywords they match (alternatives expanded, other patterns as /regex/i, further parts as secondary keywords with AND_ALL)",
		"check the keywords; nothing else is needed")
	l.Target = target
	l.Pos = k.e.FieldPos("keywords")
	return l, true
}
