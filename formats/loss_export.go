package formats

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lorekit/lore/schema"
)

// targetNames are the tools' names in the loss report.
var targetNames = map[string]string{FormatSillyTavern: "SillyTavern", FormatCardV2: "a V2 card",
	FormatCardV3: "a V3 card", FormatCharX: "a .charx card", FormatNovelAI: "NovelAI"}

// sourceNames are the tools lore reads but does not write, in the loss report.
var sourceNames = map[string]string{FormatAIDungeon: "AI Dungeon", FormatAgnai: "Agnai", FormatRisu: "RisuAI"}

// keepsIt is the "to do" for what an entry or book kept from format f and
// an export leaves out: the export that writes it back ("export --to f
// keeps it"), a card for a standalone lorebook_v3 (a card's book holds it),
// or, for a tool lore does not write, the file it came from.
func keepsIt(f, verb string) string {
	switch {
	case f == FormatLorebookV3:
		return "export --to " + FormatCardV3 + " " + verb
	case slices.Contains(Targets, f):
		return "export --to " + f + " " + verb
	}
	name := sourceNames[f]
	if name == "" {
		name = f
	}
	return "keep the " + name + " file it came from: lore reads " + name + " but does not write it"
}

// stFamily are the formats whose kept fields an export to SillyTavern or a
// card writes back (a card entry holds ST's fields in its extensions).
var stFamily = map[string]bool{FormatSillyTavern: true, FormatCardV2: true, FormatCardV3: true, FormatLorebookV3: true}

// restores says whether exporting to target writes back what an entry kept
// under extensions.<from>.
func restores(target, from string) bool {
	if target == FormatNovelAI {
		return from == FormatNovelAI
	}
	return stFamily[from]
}

// isCard says whether target is a character card (JSON or .charx).
func isCard(target string) bool {
	return target == FormatCardV2 || target == FormatCardV3 || target == FormatCharX
}

// exportLosser gathers the losses of one export.
type exportLosser struct {
	lb     *schema.Lorebook
	target string
	tool   string
	out    []Loss
	lost   map[string]int // entries whose kept data of a format is left out
}

func (x *exportLosser) add(e *schema.Entry, field string, value any, target, kind, reason, fix string) {
	l := Loss{Field: field, Kind: kind, Reason: reason, Fix: fix, Target: target}
	if value != nil {
		l.Value = short(value)
	}
	if e != nil {
		l.Entry = e.ID
		l.Pos = e.FieldPos(field)
	} else {
		l.Pos = x.lb.Manifest.FieldPos(field)
	}
	x.out = append(x.out, l)
}

// exportLosses is what exporting lb to target (sillytavern, card-v2,
// card-v3, charx, novelai) loses or changes, entry by entry and field by
// field; assets are the files given for a .charx.
func exportLosses(lb *schema.Lorebook, target string, assets []Asset) []Loss {
	x := &exportLosser{lb: lb, target: target, tool: targetNames[target], lost: map[string]int{}}
	ids := reimportIDs(lb, target)
	places := map[*schema.Entry]naiPlace{}
	if target == FormatNovelAI {
		places = naiPlacement(lb)
	}
	fields := map[string]int{}
	greetings := 0
	index := 0
	for _, e := range lb.Entries {
		if f := cardField(e); f != "" {
			fields[f]++
			x.cardFieldEntry(e, f, fields[f])
			continue
		}
		if e.Role == "greeting" {
			greetings++
			x.greeting(e, greetings, fields["first_mes"] > 0)
			continue
		}
		x.modelFields(e, ids[e])
		x.content(e)
		x.placement(e)
		if target == FormatNovelAI {
			x.novelAI(e, index, places[e])
		}
		x.foreign(e)
		index++
	}
	x.book(assets)
	sortLosses(x.out)
	return x.out
}

// cardFieldEntry: an entry made from a card's own field (description…)
// goes back into that field of a card; nothing else has the field.
func (x *exportLosser) cardFieldEntry(e *schema.Entry, field string, n int) {
	switch {
	case !isCard(x.target):
		x.add(e, "", field, "", LossDropped,
			"made from a card's own field: "+x.tool+" is no card and has no place for it",
			"export --to card-v3 or charx keeps it")
	case n > 1:
		x.add(e, "", field, field, LossChanged,
			"a second entry made from the same card field: joined to the first with a blank line, it reads back as one entry", "")
	}
}

// greeting: a greeting is the card's first message (or an alternate one);
// world-info books have no greetings.
func (x *exportLosser) greeting(e *schema.Entry, n int, firstTaken bool) {
	switch {
	case !isCard(x.target):
		x.add(e, "", "greeting", "", LossDropped,
			"the chat's opening message is no world info: "+x.tool+" has no place for it",
			"export --to card-v3 or charx writes it as first_mes")
	case n == 1 && !firstTaken:
		if e.ID != "first-message" || e.Name != "First message" || e.Section != schema.SectionSystemPresets ||
			e.Position != 4 || e.APIRole != "assistant" || !e.Enabled {
			x.add(e, "", "greeting", "first_mes", LossChanged,
				"written as the card's first_mes: it reads back as the card's first-message entry (system-presets, position 4, apiRole assistant)", "")
		}
	default:
		x.add(e, "", "greeting", "alternate_greetings", LossChanged,
			"a further greeting is written as one of the card's alternate_greetings, which lore reads back as card data, not as an entry", "")
	}
}

// modelFields are lore's fields the target has no place for: conditions,
// tags, folder, lint directives, roles, and ids it cannot read back.
func (x *exportLosser) modelFields(e *schema.Entry, backID string) {
	if len(e.Conditions) > 0 {
		x.add(e, "conditions", plural(len(e.Conditions), "condition", "conditions"), "", LossDropped,
			x.tool+" has no variables: the entry fires on its keywords alone",
			"keep the conditions in lore, or make the keywords specific enough on their own")
	}
	tags := e.Tags
	if x.target == FormatNovelAI && len(tags) > 0 {
		tags = tags[1:] // the first tag is the category
	}
	if len(tags) > 0 {
		what := "tags have no place in " + x.tool
		if x.target == FormatNovelAI {
			what = "NovelAI has one category per entry: the first tag is written as it, the others are not"
		}
		x.add(e, "tags", strings.Join(tags, ", "), "", LossDropped, what, "")
	}
	if e.FolderID != "" {
		x.add(e, "folderId", e.FolderID, "", LossDropped, "folders have no place in "+x.tool, "")
	}
	if len(e.Lint.Ignore) > 0 || e.Lint.Reason != "" {
		x.add(e, "lint", strings.Join(keywordTexts(e.Lint.Ignore), ", "), "", LossDropped,
			"lint directives are lore's own", "")
	}
	if back := x.reimportRole(e); roleMatters(e) && back != e.Role {
		x.add(e, "role", e.Role, back, LossDropped, x.tool+" has no roles for world info: it reads back as "+back, "")
	}
	if backID != e.ID {
		x.add(e, "id", e.ID, backID, LossChanged, x.tool+" has no ids: lore makes one from the name and keywords, and it comes out different",
			"name the entry after its id")
	}
}

// content: a V3 card reads lines starting @@ at the top of an entry's
// content as decorators; lore's text that starts so is taken for them.
func (x *exportLosser) content(e *schema.Entry) {
	if x.target != FormatCardV3 && x.target != FormatCharX || !strings.HasPrefix(e.Content, "@@") {
		return
	}
	if _, kept := cardOrigin(e); kept != nil {
		if ds, ok := kept["decorators"].([]any); ok && len(ds) > 0 {
			return // the card's own decorators went back on top; lore's text follows them
		}
	}
	line, _, _ := strings.Cut(e.Content, "\n")
	x.add(e, "content", line, "decorator", LossChanged,
		"a V3 card reads lines starting with @@ at the top of the content as decorators, not as text",
		"start the content with another line")
}

// roleMatters: a role lore acts on (greeting, example, a written
// character) or one the creator wrote; the default character otherwise
// only describes the text.
func roleMatters(e *schema.Entry) bool {
	return e.Has("role") || e.Role == "greeting" || e.Role == "example"
}

// reimportRole is the role an import of the target gives e back.
func (x *exportLosser) reimportRole(e *schema.Entry) string {
	if x.target != FormatNovelAI && e.Section == schema.SectionExamples {
		return "example"
	}
	return "lore"
}

// placement: where the target puts the entry, against lore's section,
// depth and apiRole.
func (x *exportLosser) placement(e *schema.Entry) {
	nai := x.target == FormatNovelAI
	switch e.Section {
	case schema.SectionSystemPresets:
		target := "position 0 (before the character)"
		if nai {
			target = "the top of the context"
		}
		x.add(e, "section", e.Section, target, LossChanged,
			x.tool+" has no system block: written as world info at "+target+", it reads back as a chat-history card",
			"keep system text in the card's system_prompt, or accept it as a card")
	case schema.SectionExamples:
		if nai {
			x.add(e, "section", e.Section, "the top of the context", LossChanged,
				"NovelAI has no example dialogue: written as text at the top of the context, it reads back as a chat-history card", "")
		}
	}
	if e.APIRole == "system" {
		return
	}
	if nai {
		x.add(e, "apiRole", e.APIRole, "", LossDropped, "NovelAI's context is one text: no message roles", "")
		return
	}
	inChat := e.Section == schema.SectionChatHistory && e.Depth != nil
	if e.Section == schema.SectionPostHistory {
		st, _, _, _ := stKept(e, 8)
		p, _ := st["position"].(float64)
		inChat = p != stANTop && p != stANBottom
	}
	if !inChat {
		x.add(e, "apiRole", e.APIRole, "system", LossChanged,
			"SillyTavern sends world info outside the chat as part of the system prompt: only entries at a depth have a role", "")
	}
}

// novelAI: what NovelAI reads differently in an entry placed at p (index
// is its place among the exported entries, what its position reads back as).
func (x *exportLosser) novelAI(e *schema.Entry, index int, p naiPlace) {
	if e.Depth != nil {
		x.add(e, "depth", *e.Depth, fmt.Sprintf("insertionPosition %d", -*e.Depth-2), LossChanged,
			"NovelAI counts lines of story text, not chat messages", "check the place in NovelAI's context viewer")
	}
	if len(e.SecondaryKeywords) > 0 {
		x.add(e, "secondaryKeywords", strings.Join(keywordTexts(e.SecondaryKeywords), ", "), "", LossDropped,
			"NovelAI has no secondary keys: the entry fires on its keywords alone",
			"fold the condition into a /regex/ keyword")
	}
	if !e.MatchWholeWords && len(e.Keywords)+len(e.SecondaryKeywords) > 0 {
		// Without keywords (always sent, or never triggered) nothing is matched.
		x.add(e, "matchWholeWords", false, "true", LossChanged,
			"NovelAI matches keys as whole words only: a keyword inside a longer word no longer fires", "")
	}
	if e.PreventRecursion {
		x.add(e, "preventRecursion", true, "", LossDropped,
			"NovelAI cannot stop an entry's text from activating others", "")
	}
	if x.lb.Manifest.Settings.RecursionLimit == 0 && !e.ExcludeRecursion {
		x.add(e, "excludeRecursion", false, "true", LossChanged,
			"recursion is off in this book: written as nonStoryActivatable: false, which reads back as excludeRecursion: true", "")
	}
	kept, _ := e.Extensions[FormatNovelAI].(map[string]any)
	if cc, _ := kept["contextConfig"].(map[string]any); naiKeepsPlace(e, cc) {
		if e.Position != index {
			x.add(e, "position", e.Position, strconv.Itoa(index), LossChanged,
				"NovelAI has no order numbers: it reads back as the place in the file", "")
		}
		return
	}
	if p.clamped {
		x.add(e, "position", e.Position, fmt.Sprintf("budgetPriority %g", p.priority), LossChanged,
			"more entries than NovelAI priorities in this part of the context: several share a priority, and NovelAI orders those by where their keys were found", "")
	} else if e.Position != index {
		x.add(e, "position", e.Position, fmt.Sprintf("budgetPriority %g", p.priority), LossChanged,
			"NovelAI has no order numbers: the order is written as budgetPriority, and it reads back as the place in the file", "")
	}
}

// foreign: what the entry kept from a format the target does not write
// back is left out; each feature the import reported is named again (the
// rest of it is counted for one book-level loss).
func (x *exportLosser) foreign(e *schema.Entry) {
	for _, f := range sortedKeys(e.Extensions) {
		m, ok := e.Extensions[f].(map[string]any)
		if ok && !restores(x.target, f) {
			x.lost[f]++
		}
		if !ok || restores(x.target, f) {
			if x.target == FormatCardV2 && f == FormatCardV3 {
				x.v2Drops(e, m)
			}
			continue
		}
		k := kept{e: e, format: f, m: m}
		if stFamily[f] {
			k.st = stKeptView(e, f)
		}
		var ls []Loss
		switch f {
		case FormatSillyTavern:
			ls = k.stLosses()
		case FormatCardV2, FormatCardV3, FormatLorebookV3:
			ls = append(k.stLosses(), k.cardEntryLosses()...)
		case FormatNovelAI:
			ls = k.novelAILosses()
		case FormatRisu:
			ls = k.risuLosses()
		}
		for _, l := range ls {
			if l.Kind == LossChanged {
				continue // what the import changed, lore's fields now say
			}
			label, _, _ := strings.Cut(l.Reason, ":")
			l.Field = "extensions." + f + "." + l.Field
			l.Kind = LossDropped
			l.Reason = label + " (kept from " + f + "): " + x.tool + " has no place for it"
			l.Fix = keepsIt(f, "writes it back")
			x.out = append(x.out, l)
		}
	}
}

// v2Drops: a V2 card has no decorators and no use_regex.
func (x *exportLosser) v2Drops(e *schema.Entry, m map[string]any) {
	if ds, ok := m["decorators"].([]any); ok && len(ds) > 0 {
		x.add(e, "extensions.card-v3.decorators", strings.Join(anyTexts(ds), " "), "", LossDropped,
			"a V2 card has no @@decorators", "export --to card-v3 keeps them")
	}
	if m["use_regex"] == true {
		x.add(e, "extensions.card-v3.use_regex", true, "", LossDropped, "a V2 card has no use_regex", "export --to card-v3 keeps it")
	}
}

// reimportIDs is the id each world-info entry gets when the export to
// target is imported again: the importer's own allocation (idAlloc over
// name, keywords, fallback) replayed on what the export writes: the comment
// (a card entry's name when the comment is empty) and the uid or id for ST
// and cards, the display name and the place in the file for NovelAI. Card
// imports first take the ids of the card fields that have text. The
// property test holds the replay to the importer.
func reimportIDs(lb *schema.Lorebook, target string) map[*schema.Entry]string {
	ids := idAlloc{used: map[string]bool{}}
	if isCard(target) {
		data := cardData(lb, target)
		for _, cf := range cardFields {
			if s, _ := data[cf.field].(string); strings.TrimSpace(s) != "" {
				ids.reserve(cf.id)
			}
		}
	}
	var world []*schema.Entry
	var kept []map[string]any
	var uids []any
	var places []int // in lb.Entries
	for n, e := range lb.Entries {
		if isWorldInfo(e) {
			st, _, _, _ := stKept(e, 8)
			world, kept, uids, places = append(world, e), append(kept, st), append(uids, st["uid"]), append(places, n)
		}
	}
	if target == FormatSillyTavern {
		uids = stUIDs(uids)
	}
	out := map[*schema.Entry]string{}
	for i, e := range world {
		name, fallback := e.Name, "entry-"+strconv.Itoa(i+1)
		if target != FormatNovelAI {
			name, _ = stComment(kept[i], e).(string)
		}
		switch {
		case target == FormatSillyTavern:
			fallback = "entry-" + uidString(uids[i])
		case isCard(target):
			_, card := cardOrigin(e)
			if alt, ok := card["name"].(string); name == "" && ok {
				name = alt
			}
			id, ok := card["id"]
			if !ok {
				id = cardEntryID(kept[i], places[i])
			}
			if f, ok := id.(float64); ok {
				fallback = "entry-" + uidString(f)
			}
		}
		cands := []string{name}
		for _, k := range e.Keywords {
			cands = append(cands, k.Text)
		}
		out[e] = ids.id(append(cands, fallback)...)
	}
	return out
}
