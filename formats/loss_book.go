package formats

import (
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// Book-level losses: what a lorebook as a whole (its manifest, its settings,
// the book data of the formats it came from, the files of a .charx) does
// not carry over, on import and on export.

// charxLosses are the files of a .charx that lore does not import.
func charxLosses(mf *schema.Manifest, file string) []Loss {
	x, _ := mf.Extensions[FormatCharX].(map[string]any)
	files, _ := x["files"].([]any)
	var out []Loss
	for _, fl := range files {
		m, _ := fl.(map[string]any)
		p, _ := m["path"].(string)
		reason := "a file of the archive: lore keeps the card's text, not its assets"
		if p == "module.risum" {
			reason = "RisuAI module (its own lorebook, regex and triggers): lore cannot read its RPack encoding, which RisuAI does not document"
		}
		out = append(out, Loss{Field: "asset", Value: p, Kind: LossDropped, Reason: reason,
			Fix: "export --to charx from the .charx itself carries it", Pos: diag.Pos{File: file}})
	}
	return out
}

// bookImportLosses are the book-level features lore does not act on: book
// settings of ST and card books, a card's other greetings, its character's
// note and regex scripts, NovelAI's category and lorebook settings.
func bookImportLosses(lb *schema.Lorebook) []Loss {
	mf := &lb.Manifest
	var out []Loss
	for _, f := range sortedKeys(mf.Extensions) {
		x, ok := mf.Extensions[f].(map[string]any)
		if !ok {
			continue
		}
		book := func(field string, v any, kind, reason, fix string) {
			out = append(out, Loss{Field: field, Value: short(v), Kind: kind, Reason: reason, Fix: fix,
				Pos: mf.FieldPos("extensions." + f + "." + field)})
		}
		switch f {
		case FormatSillyTavern, FormatCardV2, FormatCardV3, FormatLorebookV3:
			header := x
			prefix := ""
			if b, ok := x["character_book"].(map[string]any); ok {
				header, prefix = b, "character_book."
			}
			for _, k := range []string{"scan_depth", "scanDepth", "token_budget", "tokenBudget"} {
				if v, ok := header[k].(float64); ok {
					book(prefix+k, v, LossIgnored, "book scan depth and token budget: lore's budget sets the scan window and what fits",
						"set the cards share in settings.shares")
				}
			}
			if f == FormatSillyTavern {
				continue
			}
			for _, k := range []string{"alternate_greetings", "group_only_greetings"} {
				if v, ok := x[k].([]any); ok && len(v) > 0 {
					book(k, plural(len(v), "greeting", "greetings"), LossIgnored,
						"more greetings: lore makes one greeting entry, from first_mes (export to a card writes them back)",
						"add a greeting entry for each you want lore to render")
				}
			}
			if s, ok := x["nickname"].(string); ok && s != "" {
				book("nickname", s, LossIgnored, "V3 nickname: V3 readers use it for {{char}}; lore uses the name",
					"set character in the manifest to the nickname")
			}
			ext, _ := x["extensions"].(map[string]any)
			if dp, ok := ext["depth_prompt"].(map[string]any); ok && truthy(dp["prompt"]) {
				book("extensions.depth_prompt", dp["prompt"], LossIgnored,
					"the character's note (depth_prompt): SillyTavern sends it in the chat, and so does the sillytavern engine; lore's own engine does not",
					"make it a chat-history entry with alwaysSend: true and depth one less than the note's")
				out[len(out)-1].ActedOn = FormatSillyTavern
			}
			if rs, ok := ext["regex_scripts"].([]any); ok && len(rs) > 0 {
				book("extensions.regex_scripts", plural(len(rs), "script", "scripts"), LossIgnored,
					"regex scripts rewrite the chat and world info in SillyTavern, and the sillytavern engine runs them (kept in the manifest, written back on export); lore's own engine does not",
					"write what they do as manifest transforms for lore's engine")
				out[len(out)-1].ActedOn = FormatSillyTavern
			}
		case FormatCharX:
			out = append(out, charxLosses(mf, lb.Path)...)
		case FormatNovelAI:
			if s, ok := x["settings"].(map[string]any); ok && s["orderByKeyLocations"] == true {
				book("settings.orderByKeyLocations", true, LossIgnored,
					"NovelAI breaks priority ties by where the keys were found; lore by position", "")
			}
			cats, _ := x["categories"].([]any)
			for _, c := range cats {
				m, _ := c.(map[string]any)
				name, _ := m["name"].(string)
				if m["createSubcontext"] == true || m["useCategoryDefaults"] == true {
					book("categories", name, LossIgnored,
						"category subcontext or defaults: lore treats a category as a tag",
						"set the entries' fields to what the category gave them")
				}
				if gs, ok := m["categoryBiasGroups"].([]any); ok && biasUsed(gs) {
					book("categories", name, LossIgnored, "category phrase biases: lore sets no token biases",
						"bias the phrases in the app that sends the prompt")
				}
			}
		}
	}
	return out
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
			"what entries kept from "+f+" has no place in "+x.tool, keepsIt(f, "keeps it"))
	}
	mf := &x.lb.Manifest
	for _, f := range sortedKeys(mf.Extensions) {
		if f == FormatCharX || restores(x.target, f) && !(stFamily[f] && f != FormatSillyTavern && !isCard(x.target)) {
			continue
		}
		x.add(nil, "extensions."+f, nil, "", LossDropped,
			"the book's data from "+f+" (its own settings and fields) has no place in "+x.tool, keepsIt(f, "keeps it"))
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
