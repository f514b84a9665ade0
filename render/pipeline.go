// Package render is the pipeline every engine shares: the Engine interface, what
// a render takes (Input) and gives (Result, Report), and the parts engines have
// in common — macros, conditions, variable values, transforms, example parsing,
// built-in presets, and lore's context budget (SPEC §4) with its report. Which
// entries activate, where they go and in what order is each engine's own
// business (package engine and below); writing a Result is package output's. It
// must not print diagnostics or read files: callers load the lorebook,
// transcript and variables and pass them in.
package render

import (
	"errors"

	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// Input is everything one render needs.
type Input struct {
	Book       *schema.Lorebook
	Transcript *schema.Transcript // may be empty (no messages)
	// Vars are the variables file's values; they override manifest defaults.
	Vars map[string]any
	// Settings are the manifest's settings after command-line overrides.
	Settings schema.Settings
	Seed     int64
	Counter  tokenize.Counter
	// EngineSettings is the engine's own settings object as decoded JSON or
	// YAML: the manifest's settings.<engine>, overridden key by key by a
	// settings file given on the command line. Engines without settings of
	// their own ignore it.
	EngineSettings map[string]any
	// EngineConfig is EngineSettings as the engine decoded it, once, when
	// the inputs were loaded (DecodeEngineSettings); nil means the engine
	// decodes EngineSettings itself (an Input built by hand).
	EngineConfig any
	// SentOnly says the caller prints what is sent and why (the prompt, the
	// entries, the report's sections), not the sizes of what was left out
	// (the report's notes and largest entries, --explain): an engine may
	// leave unweighed what it drops unweighed (BudgetOptions.SentOnly).
	SentOnly bool

	// macros is the render's macro budget, set by Prepare.
	macros *MacroBudget
}

// SettingsDecoder is an engine with a settings object of its own
// (settings.sillytavern, settings.yumina): DecodeSettings checks and decodes
// in.EngineSettings into the value it reads back from Input.EngineConfig, so
// that a command, lint's questions and every render of a test case share one
// decoding.
type SettingsDecoder interface {
	DecodeSettings(in *Input) (any, error)
}

// DecodeEngineSettings sets in.EngineConfig when e decodes settings of its
// own. Settings it refuses leave EngineConfig nil, so that the engine says
// why where it always has: a render of in fails with the reason, lint's
// questions assume the engine's defaults.
func DecodeEngineSettings(e Engine, in *Input) {
	d, ok := e.(SettingsDecoder)
	if !ok {
		return
	}
	if v, err := d.DecodeSettings(in); err == nil {
		in.EngineConfig = v
	}
}

// MacroBudget is the render's budget for macro expansion (Prepare makes a
// fresh one for every render); nil before Prepare.
func (in *Input) MacroBudget() *MacroBudget { return in.macros }

// Trigger says what brought an entry in.
type Trigger struct {
	// Keyword is the keyword as written in the entry ("" for always/constant).
	Keyword string `json:"keyword,omitempty"`
	// In is "message:N" (transcript message N, from 0), "entry:ID" (recursion)
	// or "always" (always sent or constant); an engine that activates an entry
	// on its conditions alone (yumina) says "conditions", one forced from
	// outside the scan (sillytavern's forceActivate) "forced".
	In string `json:"in"`
}

// Activated is an entry that activation let in.
type Activated struct {
	Entry   *schema.Entry
	Trigger Trigger
	// Level is the recursion level (0 = chat or always).
	Level int
	// Hits is how many keyword hits it had in the scan window (card ranking by
	// frequency); LastMessage is the index of the newest message that triggered
	// it, -1 when none (ranking by recency).
	Hits        int
	LastMessage int
	// ParentLists are the ids of the entries whose content activated it
	// (recursion), one list per keyword they named; cards that share a
	// keyword share its list, so a keyword named in thousands of contents
	// costs one list, not one per card. If none of them is in the prompt,
	// the card is left out too.
	ParentLists [][]string
}

// Piece is one block of the prompt as assembled, before the budget decides what
// stays. Assembly emits pieces in prompt order.
type Piece struct {
	Step    int      // assembly step of SPEC §3 (1..13)
	Role    string   // system | user | assistant
	Content string   // macros already expanded
	Sources []string // entry ids, "persona", "format", "summary", "memory", "pending", "state", "message:N"
	// Section is the budget section of SPEC §7 the piece counts against:
	// last-action, front-memory, post-history, plot-essentials, system-presets,
	// summary, examples, cards, history, memory. "" for markers ([Example Chat],
	// [Start a new Chat]) that cost tokens but are never cut.
	Section string
	// Key is the name `dropped` uses for this piece: an entry id, "message:N",
	// "memory:N", or the section name.
	Key string
	// Card is set for story cards (activated chat-history entries).
	Card *Activated
	// Message is the transcript index for history and last-action pieces, else -1.
	Message int
	// Cut is set by the budget when Content was truncated to fit.
	Cut bool
}

// Prepare returns a copy of in with what every engine assumes filled in: an
// empty transcript when there is none, and a counter for the settings'
// tokenizer when none was given. It never changes in itself.
func Prepare(in *Input) (*Input, error) {
	if in == nil || in.Book == nil {
		return nil, errors.New("render: no lorebook")
	}
	local := *in
	if local.Transcript == nil {
		local.Transcript = &schema.Transcript{}
	}
	if local.Counter == nil {
		c, err := tokenize.Get(local.Settings.Tokenizer)
		if err != nil {
			return nil, err
		}
		local.Counter = c
	}
	local.macros = NewMacroBudget(&local)
	return &local, nil
}
