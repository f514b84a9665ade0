package schema

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// What a file is, decided here and nowhere else: validate's kind detection,
// the loader's choice between a manifest and a single entry, and the folder
// walk's test for lore data all read the keys below.

// Kind of file: what validate checks a path as.
type Kind int

const (
	KindLorebook Kind = iota + 1
	KindTranscript
	KindVars
	// KindTest is a test file of lore test (a mapping with cases:).
	KindTest
)

func (k Kind) String() string {
	switch k {
	case KindLorebook:
		return "lorebook"
	case KindTranscript:
		return "transcript"
	case KindVars:
		return "vars"
	case KindTest:
		return "test"
	}
	return "unknown"
}

// lorebookKeys are keys that make a mapping a lorebook (lore's manifest or
// entry keys) or a foreign lorebook (left for package formats to recognise).
var lorebookKeys = map[string]bool{
	"name": true, "description": true, "settings": true, "variables": true, "persona": true,
	"character": true, "format": true, "presets": true, "transforms": true, "folders": true,
	"entries": true, "id": true, "section": true, "content": true, "keywords": true,
	"spec": true, "data": true, "lorebookVersion": true, "extensions": true,
}

// singleEntryKeys make a mapping without entries: one entry, not a manifest.
var singleEntryKeys = map[string]bool{"id": true, "section": true, "content": true, "keywords": true}

var transcriptKeys = map[string]bool{"messages": true, "summary": true, "memory": true, "pending": true}

// entryOnlyKeys are the fields of an entry that a chat message never has
// (both have role, content and name): one of them makes a list item an entry.
var entryOnlyKeys = map[string]bool{
	"id": true, "section": true, "keywords": true, "secondaryKeywords": true, "secondaryKeywordLogic": true,
	"apiRole": true, "position": true, "enabled": true, "alwaysSend": true, "conditions": true,
	"conditionLogic": true, "depth": true, "matchWholeWords": true, "preventRecursion": true,
	"excludeRecursion": true, "tags": true, "folderId": true, "lint": true,
}

// messageKeys make a list item a chat message (OpenAI's role, SillyTavern's
// mes and flags) when it has no entry-only field.
var messageKeys = map[string]bool{"role": true, "mes": true, "is_user": true, "is_system": true}

// DetectKind says what a file or folder is, by content: a folder is a
// lorebook; a .jsonl file, a mapping with messages (or summary, memory,
// pending) and a list of {role, content} or SillyTavern messages are
// transcripts; a mapping with cases: is a test file (lore test's); a
// mapping with none of the lorebook, manifest, transcript or test keys is a
// variables file; everything else is a lorebook. A list is a list
// of entries when its first item that says has a field only entries have
// (id, section, keywords, ...), and messages when it has role (or mes,
// is_user, is_system) and none of those: entries have a role too.
func DetectKind(path string, root *yaml.Node) Kind {
	if strings.EqualFold(extOf(path), ".jsonl") {
		return KindTranscript
	}
	root = resolve(root)
	if root == nil {
		return KindLorebook
	}
	switch root.Kind {
	case yaml.SequenceNode:
		if isMessageList(root) {
			return KindTranscript
		}
	case yaml.MappingNode:
		ps, _ := pairs(root)
		keys := make([]string, len(ps))
		for i, p := range ps {
			keys[i] = p.Key
		}
		return mappingKind(keys)
	}
	return KindLorebook
}

// KindOfKeys is DetectKind for a document whose root is a mapping with these
// keys, in source order, read into a tree other than yaml.Node.
func KindOfKeys(path string, keys []string) Kind {
	if strings.EqualFold(extOf(path), ".jsonl") {
		return KindTranscript
	}
	return mappingKind(keys)
}

// mappingKind decides a mapping by its keys: a transcript's or a test's
// first, else a lorebook's, else variables.
func mappingKind(keys []string) Kind {
	isLore := false
	for _, k := range keys {
		if transcriptKeys[k] {
			return KindTranscript
		}
		if k == "cases" {
			return KindTest
		}
		if lorebookKeys[k] {
			isLore = true
		}
	}
	if !isLore && len(keys) > 0 {
		return KindVars
	}
	return KindLorebook
}

// isMessageList decides a list by its first item that has an entry-only or a
// message field.
func isMessageList(list *yaml.Node) bool {
	for _, item := range list.Content {
		ps, _ := pairs(item)
		message := false
		for _, p := range ps {
			if entryOnlyKeys[p.Key] {
				return false
			}
			message = message || messageKeys[p.Key]
		}
		if message {
			return true
		}
	}
	return false
}

// isSingleEntry says whether a mapping loaded as a lorebook is one entry
// (entry keys and no entries:) rather than a manifest.
func isSingleEntry(root *yaml.Node) bool {
	ps, _ := pairs(root)
	entryish := false
	for _, p := range ps {
		if p.Key == "entries" {
			return false
		}
		entryish = entryish || singleEntryKeys[p.Key]
	}
	return entryish
}

// IsLoreData says whether a file found while walking a folder (not named by
// the user) is recognisably lore's own data, and of which kind: a transcript;
// a lorebook file with entries:; one entry (id and section); a list whose
// first item has a section. A variables file cannot be told from any small
// YAML mapping, and other files (package.json, CI configuration) are not lore.
func IsLoreData(path string, root *yaml.Node) (Kind, bool) {
	k := DetectKind(path, root)
	if k != KindLorebook {
		return k, k == KindTranscript
	}
	has := func(m *yaml.Node, keys ...string) bool {
		ps, _ := pairs(m)
		seen := 0
		for _, p := range ps {
			for _, k := range keys {
				if p.Key == k {
					seen++
				}
			}
		}
		return seen == len(keys)
	}
	root = resolve(root)
	switch {
	case root == nil:
		return k, false
	case root.Kind == yaml.MappingNode:
		return k, has(root, "entries") || has(root, "id", "section")
	case root.Kind == yaml.SequenceNode:
		return k, len(root.Content) > 0 && has(root.Content[0], "section")
	}
	return k, false
}

func extOf(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 && !strings.ContainsAny(path[i:], `/\`) {
		return path[i:]
	}
	return ""
}
