// Package bookgen builds lorebooks of any size in every input shape lore reads
// (lore YAML, pretty and minified lore JSON, a SillyTavern book, a Card V2 PNG,
// a NovelAI book) and the hostile shapes that once made lore slow (many entries
// sharing one keyword, a YAML alias bomb). The benchmark script and the
// allocation guards build their inputs here, so both measure the same files.
// It knows nothing of lore's packages: what it writes is what a user's tool
// would write, checked only by loading it in tests.
package bookgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Shape is one way of writing a lorebook.
type Shape string

const (
	// YAML is lore's own single-file YAML (manifest and entries).
	YAML Shape = "yaml"
	// JSON is lore's own format as indented JSON.
	JSON Shape = "json"
	// JSONMin is the same JSON on one line, as `jq -c` or any JSON library writes it.
	JSONMin Shape = "json-min"
	// SillyTavern is a SillyTavern world-info book (minified, entries keyed by uid).
	SillyTavern Shape = "st"
	// PNGCard is a Character Card V2 PNG whose character_book holds the entries.
	PNGCard Shape = "png"
	// NovelAI is a NovelAI .lorebook (version 6).
	NovelAI Shape = "novelai"
	// SharedKeyword is lore YAML where every entry has the keyword "tavern"
	// and content that mentions it: the worst case for keyword analysis.
	SharedKeyword Shape = "shared-kw"
	// SillyTavernFindings is a minified SillyTavern book in which one entry
	// in twenty repeats the keyword of the one before and has no content, so
	// lint has findings on a one-line file of hundreds of kilobytes.
	SillyTavernFindings Shape = "st-findings"
	// AliasBomb is lore YAML where one 1 MB string is reused by every entry
	// through a YAML alias: small on disk, huge once expanded.
	AliasBomb Shape = "alias-bomb"
)

// Shapes are the shapes of ordinary lorebooks, each of which lore must load in
// time linear in its entries.
var Shapes = []Shape{YAML, JSON, JSONMin, SillyTavern, PNGCard, NovelAI, SharedKeyword, CJK}

// Ext is the file name extension of a shape.
func (s Shape) Ext() string {
	switch s {
	case JSON, JSONMin, SillyTavern, SillyTavernFindings:
		return ".json"
	case PNGCard:
		return ".png"
	case NovelAI:
		return ".lorebook"
	}
	return ".yaml"
}

// File is the name Write gives the file of n entries in shape s.
func (s Shape) File(n int) string { return fmt.Sprintf("%s-%d%s", s, n, s.Ext()) }

// Write writes a lorebook of n entries in shape s into dir, named after the
// shape and size, and returns its path.
func Write(dir string, s Shape, n int) (string, error) {
	data, err := Bytes(s, n)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, s.File(n))
	return p, os.WriteFile(p, data, 0o644)
}

// Bytes returns a lorebook of n entries in shape s. The same arguments always
// give the same bytes.
func Bytes(s Shape, n int) ([]byte, error) {
	switch s {
	case YAML:
		return loreYAML(n), nil
	case JSON:
		return json.MarshalIndent(loreBook(n), "", "  ")
	case JSONMin:
		return json.Marshal(loreBook(n))
	case SillyTavern:
		return json.Marshal(stBook(n, false))
	case SillyTavernFindings:
		return json.Marshal(stBook(n, true))
	case PNGCard:
		card, err := json.Marshal(cardV2(n))
		if err != nil {
			return nil, err
		}
		return cardPNG(card), nil
	case NovelAI:
		return json.Marshal(novelAIBook(n))
	case SharedKeyword:
		return sharedKeyword(n), nil
	case CJK:
		return cjkYAML(n), nil
	case AliasBomb:
		return aliasBomb(n, 1<<20), nil
	}
	return nil, fmt.Errorf("bookgen: unknown shape %q", s)
}

// Realistic text: a few sentences, a line break, some non-ASCII (so columns
// count runes, not bytes) and a mention of another entry's keyword (so
// recursion and keyword analysis have work).
var places = []string{"Millbrook", "Port Vell", "the Whisperwood", "Karth River", "Ashfall", "Élan Keep", "霧の谷", "Dunmere"}

func keyword(i int) string { return fmt.Sprintf("place%d", i) }

func content(i, n int) string {
	return fmt.Sprintf("The town of %s has %d souls and lies by %s. Travellers say the road to %s is safe by day.\n"+
		"Its market sells barrels, rope and \"river glass\"; the inn keeps a room for %s. "+
		"Old songs call it the %dth gate.",
		keyword(i), 100+i*7%900, places[i%len(places)], keyword((i*7+1)%n), places[(i+3)%len(places)], i)
}

func id(i int) string { return fmt.Sprintf("entry-%d", i) }

// loreBook is lore's own single-file lorebook as plain values (JSON shapes).
func loreBook(n int) map[string]any {
	entries := make([]any, n)
	for i := range entries {
		e := map[string]any{
			"id": id(i), "name": fmt.Sprintf("Place %d", i), "role": "lore", "section": "chat-history",
			"keywords": []string{keyword(i), fmt.Sprintf("alias%d", i)}, "position": i % 10,
			"content": content(i, n),
		}
		if i%10 == 3 {
			e["conditions"] = []any{map[string]any{"variableId": "gold", "operator": "gt", "value": i % 7}}
		}
		if i%7 == 0 {
			e["matchWholeWords"] = true
		}
		entries[i] = e
	}
	return map[string]any{
		"name": "Generated", "description": "A generated lorebook.",
		"variables": []any{map[string]any{"id": "gold", "type": "number", "default": 0}},
		"entries":   entries,
	}
}

func loreYAML(n int) []byte {
	var b bytes.Buffer
	b.WriteString("name: Generated\ndescription: A generated lorebook.\nvariables:\n  - {id: gold, type: number, default: 0}\nentries:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - id: %s\n    name: Place %d\n    role: lore\n    section: chat-history\n    keywords: [%s, alias%d]\n    position: %d\n",
			id(i), i, keyword(i), i, i%10)
		if i%10 == 3 {
			fmt.Fprintf(&b, "    conditions:\n      - {variableId: gold, operator: gt, value: %d}\n", i%7)
		}
		if i%7 == 0 {
			b.WriteString("    matchWholeWords: true\n")
		}
		b.WriteString("    content: |-\n")
		for _, line := range strings.Split(content(i, n), "\n") {
			b.WriteString("      " + line + "\n")
		}
	}
	return b.Bytes()
}

func stBook(n int, findings bool) map[string]any {
	ents := make(map[string]any, n)
	for i := 0; i < n; i++ {
		e := map[string]any{
			"uid": i, "key": []string{keyword(i), fmt.Sprintf("alias%d", i)}, "keysecondary": []string{},
			"comment": fmt.Sprintf("Place %d", i), "content": content(i, n),
			"constant": false, "selective": true, "selectiveLogic": 0, "order": 100 + i%50,
			"position": i % 5, "disable": false, "depth": 4, "probability": 100, "useProbability": true,
			"group": "", "sticky": 0, "excludeRecursion": false, "preventRecursion": false,
		}
		if findings && i%20 == 1 {
			e["key"] = []string{keyword(i - 1)}
			e["content"] = ""
		}
		ents[fmt.Sprint(i)] = e
	}
	return map[string]any{"entries": ents}
}

func cardV2(n int) map[string]any {
	entries := make([]any, n)
	for i := range entries {
		entries[i] = map[string]any{
			"keys": []string{keyword(i), fmt.Sprintf("alias%d", i)}, "content": content(i, n),
			"enabled": true, "insertion_order": 100 + i%50, "comment": fmt.Sprintf("Place %d", i),
			"extensions": map[string]any{"position": i % 5, "depth": 4},
		}
	}
	return map[string]any{
		"spec": "chara_card_v2", "spec_version": "2.0",
		"data": map[string]any{
			"name": "Mira", "description": "Mira is a cartographer.", "personality": "", "scenario": "",
			"first_mes": "Hello, traveller.", "mes_example": "", "creator_notes": "", "system_prompt": "",
			"post_history_instructions": "", "alternate_greetings": []string{}, "tags": []string{},
			"creator": "", "character_version": "", "extensions": map[string]any{},
			"character_book": map[string]any{"name": "Mira's world", "entries": entries},
		},
	}
}

func novelAIBook(n int) map[string]any {
	entries := make([]any, n)
	for i := range entries {
		entries[i] = map[string]any{
			"text": content(i, n), "displayName": fmt.Sprintf("Place %d", i), "id": fmt.Sprintf("nai-%d", i),
			"keys": []string{keyword(i), fmt.Sprintf("alias%d", i)}, "searchRange": 1000, "enabled": true,
			"forceActivation": false, "keyRelative": false, "nonStoryActivatable": false,
			"lastUpdatedAt": 1700000000000,
			"contextConfig": map[string]any{"prefix": "", "suffix": "\n", "tokenBudget": 100, "reservedTokens": 0,
				"budgetPriority": 400, "trimDirection": "trimBottom", "insertionType": "newline",
				"maximumTrimType": "sentence", "insertionPosition": -1},
		}
	}
	return map[string]any{"lorebookVersion": 6, "entries": entries}
}

func sharedKeyword(n int) []byte {
	var b bytes.Buffer
	b.WriteString("name: Shared\nentries:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - {id: e%d, section: chat-history, keywords: [tavern], content: The tavern has room %d.}\n", i, i)
	}
	return b.Bytes()
}

// aliasBomb writes one string of size bytes under an anchor and n entries
// whose content is an alias to it.
func aliasBomb(n, size int) []byte {
	var b bytes.Buffer
	b.WriteString("name: Bomb\nentries:\n  - id: e0\n    section: chat-history\n    content: &big \"")
	b.WriteString(strings.Repeat("lore ", size/5))
	b.WriteString("\"\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "  - {id: e%d, section: chat-history, content: *big}\n", i)
	}
	return b.Bytes()
}
