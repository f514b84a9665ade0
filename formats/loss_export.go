package formats

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lorekit/lore/schema"
)

// targetNames are the tools' names in the loss report.
var targetNames = map[string]string{FormatSillyTavern: "SillyTavern", FormatCardV2: "a V2 card",
	FormatCardV3: "a V3 card", FormatCharX: "a .charx card", FormatNovelAI: "NovelAI"}

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
// field; assets are the files given for a .charx, data what was written.
func exportLosses(lb *schema.Lorebook, target string, assets []Asset, data []byte) []Loss {
	x := &exportLosser{lb: lb, target: target, tool: targetNames[target], lost: map[string]int{}}
	ids := reimportIDs(lb, data)
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
		x.add(e, "lint", strings.Join(keywordStrings(e.Lint.Ignore), ", "), "", LossDropped,
			"lint directives are lore's own", "")
	}
	if back := x.reimportRole(e); roleMatters(e) && back != e.Role {
		x.add(e, "role", e.Role, back, LossDropped, x.tool+" has no roles for world info: it reads back as "+back, "")
	}
	if backID != "" && backID != e.ID {
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
		st := stKept(e)
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
		x.add(e, "secondaryKeywords", strings.Join(keywordStrings(e.SecondaryKeywords), ", "), "", LossDropped,
			"NovelAI has no secondary keys: the entry fires on its keywords alone",
			"fold the condition into a /regex/ keyword")
	}
	if !e.MatchWholeWords {
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
		var ls []Loss
		switch f {
		case FormatSillyTavern:
			ls = k.stLosses()
		case FormatCardV2, FormatCardV3, FormatLorebookV3:
			k.inner, _ = m["extensions"].(map[string]any)
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
			l.Fix = "export --to " + f + " writes it back"
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

// book: the manifest's fields and settings, the book-level data of other
// formats, and the assets of a card.
func (x *exportLosser) book(assets []Asset) {
	mf := &x.lb.Manifest
	nai := x.target == FormatNovelAI
	if mf.Character != "" && !isCard(x.target) {
		x.add(nil, "character", mf.Character, "", LossDropped, "world-info books have no character", "")
	}
	if nai && mf.Description != "" {
		x.add(nil, "description", mf.Description, "", LossDropped, "a NovelAI lorebook has no description", "")
	}
	if nai && mf.Name != "" {
		x.add(nil, "name", mf.Name, "the file name", LossChanged, "a NovelAI lorebook has no name: lore reads it back from the file name", "name the file after the book")
	}
	for _, f := range []struct {
		field string
		set   bool
	}{{"format", mf.Format != ""}, {"persona", mf.Persona != nil}, {"presets", len(mf.Presets) > 0},
		{"transforms", len(mf.Transforms) > 0}, {"variables", len(mf.Variables) > 0}, {"folders", len(mf.Folders) > 0}} {
		if f.set {
			x.add(nil, f.field, nil, "", LossDropped, "lore's own: "+x.tool+" has no place for it", "")
		}
	}
	x.settings()
	x.foreignBook()
	x.assets(assets)
}

// settings: lore's budget and recursion settings.
func (x *exportLosser) settings() {
	s, d := x.lb.Manifest.Settings, schema.DefaultSettings()
	budget := []struct {
		field string
		set   bool
		v     any
	}{{"settings.contextTokens", s.ContextTokens != d.ContextTokens, s.ContextTokens},
		{"settings.responseReserve", s.ResponseReserve != d.ResponseReserve, s.ResponseReserve},
		{"settings.requiredCap", s.RequiredCap != d.RequiredCap, s.RequiredCap},
		{"settings.shares", s.Shares != d.Shares, s.Shares},
		{"settings.tokenizer", s.Tokenizer != d.Tokenizer, s.Tokenizer}}
	for _, b := range budget {
		if !b.set {
			continue
		}
		if x.target == FormatNovelAI && b.field != "settings.tokenizer" {
			x.add(nil, b.field, b.v, "each entry's tokenBudget", LossChanged,
				"NovelAI budgets entry by entry: the cards share and the Required cap become each entry's tokenBudget, which reads back as lore's defaults", "")
			continue
		}
		x.add(nil, b.field, b.v, "", LossDropped, x.tool+" sets the budget in the app, not in the book", "")
	}
	switch {
	case s.RecursionLimit == d.RecursionLimit:
	case s.RecursionLimit == 0 && x.target == FormatNovelAI:
		x.add(nil, "settings.recursionLimit", 0, "nonStoryActivatable: false", LossChanged,
			"written as nonStoryActivatable: false on every entry, which reads back as excludeRecursion: true", "")
	case s.RecursionLimit == 0 && isCard(x.target):
		// A card book's recursive_scanning: false, read back as 0.
	case s.RecursionLimit == 0:
		x.add(nil, "settings.recursionLimit", 0, "recursive_scanning: false", LossChanged,
			"written as recursive_scanning: false, which lore reads back but SillyTavern ignores (its recursion is a global setting)",
			"switch recursion off in SillyTavern's settings too")
	default:
		x.add(nil, "settings.recursionLimit", s.RecursionLimit, "", LossDropped,
			x.tool+" has no recursion limit in the book: it reads back as 3", "")
	}
	if x.target == FormatNovelAI {
		x.add(nil, "settings", nil, "", LossChanged,
			"NovelAI looks for keys in the last 1000 characters of story (searchRange) and budgets entries by priority; lore scans its window of messages and ranks cards by its own rules", "")
	}
}

// foreignBook: book-level data of formats the target does not write back,
// and how many entries kept data of such a format.
func (x *exportLosser) foreignBook() {
	for _, f := range sortedKeys(x.lost) {
		x.add(nil, "extensions."+f, plural(x.lost[f], "entry", "entries"), "", LossDropped,
			"what entries kept from "+f+" has no place in "+x.tool, "export --to "+f+" keeps it")
	}
	mf := &x.lb.Manifest
	for _, f := range sortedKeys(mf.Extensions) {
		if f == FormatCharX || restores(x.target, f) && !(stFamily[f] && f != FormatSillyTavern && !isCard(x.target)) {
			continue
		}
		x.add(nil, "extensions."+f, nil, "", LossDropped,
			"the book's data from "+f+" (its own settings and fields) has no place in "+x.tool, "export --to "+f+" keeps it")
	}
}

// assets: the files of a .charx the export does not carry.
func (x *exportLosser) assets(given []Asset) {
	mf := &x.lb.Manifest
	have := map[string]bool{}
	for _, a := range given {
		have[a.Path] = true
	}
	charx, _ := mf.Extensions[FormatCharX].(map[string]any)
	files, _ := charx["files"].([]any)
	for _, f := range files {
		m, _ := f.(map[string]any)
		p, _ := m["path"].(string)
		if x.target == FormatCharX && have[p] {
			continue
		}
		reason := "the archive's files are not lorebook text: " + x.tool + " is written without them"
		fix := "export --to charx from the .charx itself carries them"
		if x.target == FormatCharX {
			reason = "not given to this export"
			fix = "pass it with --asset, or export from the .charx itself"
		}
		if p == "module.risum" {
			reason = "RisuAI module (its own lorebook, regex and triggers): lore cannot read its RPack encoding; " + reason
		}
		x.add(nil, "asset", p, "", LossDropped, reason, fix)
	}
	if x.target != FormatCharX {
		return
	}
	kept, _ := cardKept(mf)["assets"].([]any)
	for _, d := range kept {
		m, _ := d.(map[string]any)
		uri, _ := m["uri"].(string)
		if p, ok := strings.CutPrefix(uri, "embeded://"); ok && !have[p] && !listed(files, p) {
			x.add(nil, "assets", uri, "", LossDropped, "the card lists an asset that was not given: its descriptor is left out",
				"pass the file with --asset")
		}
	}
}

func listed(files []any, p string) bool {
	for _, f := range files {
		if m, _ := f.(map[string]any); m["path"] == p {
			return true
		}
	}
	return false
}

// reimportIDs is the id each world-info entry gets when data (what the
// export wrote) is imported again: the importer itself says, so the report
// never guesses. Entries a card import makes from the card's own fields
// come first in the card and are skipped.
func reimportIDs(lb *schema.Lorebook, data []byte) map[*schema.Entry]string {
	back, _, err := Convert("reimport", data)
	if err != nil {
		return nil
	}
	var again []*schema.Entry
	for _, e := range back.Entries {
		if cardField(e) == "" {
			again = append(again, e)
		}
	}
	out := map[*schema.Entry]string{}
	i := 0
	for _, e := range lb.Entries {
		if isWorldInfo(e) && i < len(again) {
			out[e] = again[i].ID
			i++
		}
	}
	return out
}
