// Package schema owns lore's data model (lorebook, entry, manifest, transcript,
// variables file), loading it from YAML or JSON with the position of every value,
// and the embedded JSON Schema it is checked against. It must not know about
// foreign formats (package formats), prompts (render) or rules (lint).
package schema

import "github.com/lorekit/lore/diag"

// Pos is where a value came from.
type Pos = diag.Pos

// Sections, in the order the prompt is assembled.
const (
	SectionSystemPresets = "system-presets"
	SectionExamples      = "examples"
	SectionChatHistory   = "chat-history"
	SectionPostHistory   = "post-history"
)

// Secondary keyword logics.
const (
	AndAny = "AND_ANY"
	AndAll = "AND_ALL"
	NotAny = "NOT_ANY"
	NotAll = "NOT_ALL"
)

// Lorebook is a loaded lorebook, whatever shape or format it came from.
type Lorebook struct {
	// Path is what the user named (a folder or a file).
	Path string
	// Format is "lore" for lore's own YAML/JSON, else the foreign format's id
	// ("sillytavern", "card-v2", "card-v3", "lorebook-v3", "novelai", "aidungeon",
	// "agnai", "risu").
	Format   string
	Manifest Manifest
	// Entries in file order (folder lorebooks: files sorted by path).
	Entries []*Entry
	// Files lists every file read, in the order read.
	Files []string
	// UniqueIDs says the loader checked the entries' ids and found no
	// two alike (it reports duplicates as duplicate-id), so lint need not
	// look again. Whoever changes the entries' ids after loading clears it.
	UniqueIDs bool
}

// Entry is one lorebook entry (SPEC §1). Every field holds its default when the
// source omitted it; Fields records which keys were present and where.
type Entry struct {
	ID                    string
	Name                  string
	Content               string
	Role                  string // default "character" (SPEC §1 shows it); see docs/decisions.md
	APIRole               string // system | user | assistant; default system
	Section               string
	Position              int
	Enabled               bool // default true
	AlwaysSend            bool // default from Section (see DefaultAlwaysSend)
	Keywords              []Keyword
	Conditions            []Condition
	ConditionLogic        string // all | any; default all
	Depth                 *int   // nil = triggered block
	MatchWholeWords       bool
	SecondaryKeywords     []Keyword
	SecondaryKeywordLogic string // default AND_ANY
	PreventRecursion      bool
	ExcludeRecursion      bool
	Tags                  []string
	FolderID              string
	Lint                  LintDirective
	// Extensions keeps what a foreign format had that lore's model has no place
	// for, keyed by format id, so that export loses nothing.
	Extensions map[string]any

	// Pos is the start of the entry's mapping (for a missing field, diagnostics
	// point here).
	Pos Pos
	// Fields maps each key present in the source (JSON field name, e.g.
	// "alwaysSend") to the position of its value.
	Fields map[string]Pos
	// ContentPos is the position of the first character of Content's text; for a
	// YAML block scalar (content: |) that is the line after the indicator.
	ContentPos Pos
	// ContentLine, when non-nil, maps a byte offset in Content to its source
	// position, so a finding inside the text (a format template, a keyword in
	// content) can point at its own line. Nil means "use ContentPos".
	ContentLine func(offset int) Pos
}

// Has reports whether the source set the field explicitly.
func (e *Entry) Has(field string) bool { _, ok := e.Fields[field]; return ok }

// FieldPos is the position of a field's value, or of the entry when absent.
func (e *Entry) FieldPos(field string) Pos {
	if p, ok := e.Fields[field]; ok {
		return p
	}
	return e.Pos
}

// PosInContent is the position of a byte offset of Content.
func (e *Entry) PosInContent(offset int) Pos {
	if e.ContentLine != nil {
		return e.ContentLine(offset)
	}
	if e.ContentPos.Line != 0 {
		return e.ContentPos
	}
	return e.FieldPos("content")
}

// IsConstant reports a chat-history entry that is sent without keywords.
func (e *Entry) IsConstant() bool { return e.Section == SectionChatHistory && e.AlwaysSend }

// DefaultAlwaysSend is SPEC §1's default: true for every section but chat-history.
func DefaultAlwaysSend(section string) bool { return section != SectionChatHistory }

// Keyword is one primary or secondary keyword as written.
type Keyword struct {
	Text string
	Pos  Pos
}

// Condition gates an entry on a variable.
type Condition struct {
	VariableID string
	Operator   string // eq neq gt lt gte lte contains
	// Value is as decoded: string, float64, bool, nil, []any or map[string]any.
	Value  any
	Pos    Pos
	Fields map[string]Pos
}

// FieldPos is the position of a condition field's value, or of the condition.
func (c *Condition) FieldPos(field string) Pos {
	if p, ok := c.Fields[field]; ok {
		return p
	}
	return c.Pos
}

// LintDirective is an entry's `lint: {ignore: [...], reason: ...}`.
type LintDirective struct {
	Ignore []Keyword // rule ids, with positions
	Reason string
	Pos    Pos
}

// Manifest is lorebook.yaml, or the top-level keys of a single-file lorebook.
type Manifest struct {
	Name        string
	Description string
	Character   string
	Format      string
	Settings    Settings
	Variables   []Variable
	Persona     *Persona
	Presets     []Keyword
	Transforms  []Transform
	Folders     []Folder
	Extensions  map[string]any

	Pos    Pos
	Fields map[string]Pos
}

// FieldPos is the position of a manifest field's value, or of the manifest.
func (m *Manifest) FieldPos(field string) Pos {
	if p, ok := m.Fields[field]; ok {
		return p
	}
	return m.Pos
}

// Variable returns the declared variable with that id, or nil.
func (m *Manifest) Variable(id string) *Variable {
	for i := range m.Variables {
		if m.Variables[i].ID == id {
			return &m.Variables[i]
		}
	}
	return nil
}

// Settings are the manifest's budget and matching settings (SPEC §2, §4).
type Settings struct {
	ContextTokens   int
	ResponseReserve int
	Tokenizer       string
	RequiredCap     float64
	Shares          Shares
	RecursionLimit  int
	// Engine is settings.engine ("" when the manifest does not name one);
	// Engines holds the engines' own settings objects by engine name
	// (settings.sillytavern, settings.yumina), as decoded.
	Engine  string
	Engines map[string]map[string]any
	Fields  map[string]Pos // "contextTokens", "shares.cards", ...
}

// Shares of the Dynamic budget.
type Shares struct {
	Cards   float64
	History float64
	Memory  float64
}

// DefaultSettings are SPEC §2's defaults.
func DefaultSettings() Settings {
	return Settings{
		ContextTokens:   8192,
		ResponseReserve: 1024,
		Tokenizer:       "o200k_base",
		RequiredCap:     0.70,
		Shares:          Shares{Cards: 0.25, History: 0.50, Memory: 0.25},
		RecursionLimit:  3,
	}
}

// Available is contextTokens − responseReserve (never negative).
func (s Settings) Available() int {
	if a := s.ContextTokens - s.ResponseReserve; a > 0 {
		return a
	}
	return 0
}

// Variable is a declared variable.
type Variable struct {
	ID          string
	Type        string // string | number | boolean | list | object
	Default     any
	Description string
	Pos         Pos
	Fields      map[string]Pos
}

// TypeOf is the variable type (string, number, boolean, list, object) of a
// decoded value, or "" for null and anything else.
func TypeOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64, int:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "list"
	case map[string]any:
		return "object"
	}
	return ""
}

// Persona is the player's persona.
type Persona struct {
	Name       string
	Appearance string
	Backstory  string
	Pos        Pos
}

// Transform rewrites history before assembly (SPEC §5).
type Transform struct {
	Pattern  string
	Replace  string
	MinDepth *int
	MaxDepth *int
	Roles    []string
	Pos      Pos
	Fields   map[string]Pos
}

// Folder groups entries for display.
type Folder struct {
	ID   string
	Name string
	Pos  Pos
}

// Transcript is a chat to render against (SPEC §2).
type Transcript struct {
	Path     string
	Messages []Message
	Summary  string
	Memory   []Item
	Pending  []Item
	Persona  *Persona
}

// Message is one chat message. Index is its place in Messages (0 = oldest).
type Message struct {
	Role    string // user | assistant | system
	Name    string
	Content string
	Pos     Pos
	// TextPos is where a SillyTavern chat message's text is written: the
	// opening quote of its mes string (the zero Pos elsewhere).
	TextPos Pos
}

// Item is one memory item or pending effect.
type Item struct {
	Text string
	Pos  Pos
}

// Vars is a variables file: variable id → value.
type Vars struct {
	Path   string
	Values map[string]any
	Pos    map[string]Pos
}
