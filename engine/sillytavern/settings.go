package sillytavern

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/lorekit/lore/engine/sillytavern/stregex"
	"github.com/lorekit/lore/render"
)

// Settings are SillyTavern's global World Info settings (settings.sillytavern
// in the manifest, or a file given with --st-settings), with the values a
// fresh SillyTavern 1.12.6 install ships (default/content/settings.json).
type Settings struct {
	ScanDepth              float64 // messages scanned, newest first
	CaseSensitive          bool
	MatchWholeWords        bool
	IncludeNames           bool // scan "Name: message"
	Recursive              bool
	MaxRecursionSteps      float64 // 0 = unlimited
	MinActivations         float64
	MinActivationsDepthMax float64
	Budget                 float64 // % of MaxContext
	BudgetCap              float64 // tokens, 0 = none
	UseGroupScoring        bool
	// MaxContext is what SillyTavern's getMaxContextSize() returns (the
	// context minus the response length); 0 means lore's settings decide
	// (contextTokens − responseReserve).
	MaxContext    float64
	CharacterName string // "" = the card's, else the transcript's, else "Character"
	UserName      string // "" = the persona's, else the transcript's, else "User"
	CharacterTags []string
	// Seed is used when the command line gives none (--seed 0).
	Seed *float64
	// GenerationType is SillyTavern's generation type: normal, swipe,
	// regenerate, continue, impersonate, quiet (triggers; swipe and
	// regenerate also drop the message being replaced).
	GenerationType string
	AuthorsNote    AuthorsNote
	// RegexScripts are the global regex scripts (SillyTavern's export
	// shape); CardRegexScripts runs the card's too (regexscripts.go).
	RegexScripts     []*stregex.Script
	CardRegexScripts bool
}

// AuthorsNote is the chat's Author's Note, which SillyTavern injects into
// the chat at a depth, with the an-top and an-bottom entries around it.
type AuthorsNote struct {
	Content     string
	Active      bool // the note is sent this generation (its interval)
	AllowWIScan bool // its text is scanned for keywords
	Depth       float64
	Role        int // 0 system, 1 user, 2 assistant
}

// generationTypes are SillyTavern's generation types (entries' triggers).
var generationTypes = []string{"normal", "continue", "impersonate", "swipe", "regenerate", "quiet"}

// DefaultSettings are SillyTavern 1.12.6's shipped values.
func DefaultSettings() Settings {
	return Settings{
		ScanDepth: 2, MatchWholeWords: true, IncludeNames: true, Recursive: true, Budget: 25,
		GenerationType: "normal",
		AuthorsNote:    AuthorsNote{Active: true, Depth: 4}, CardRegexScripts: true,
	}
}

// settingKeys lists every key settings.sillytavern accepts. Keys of the
// oracle's settings object that only its harness uses are accepted and
// ignored, so that the same file drives both.
var settingKeys = map[string]bool{
	"scanDepth": true, "caseSensitive": true, "matchWholeWords": true, "includeNames": true,
	"recursive": true, "maxRecursionSteps": true, "minActivations": true, "minActivationsDepthMax": true,
	"budget": true, "budgetCap": true, "useGroupScoring": true, "characterName": true,
	"characterTags": true, "maxContext": true, "userName": true, "seed": true, "generationType": true,
	"authorsNote": true, "regexScripts": true, "cardRegexScripts": true,
	// the oracle harness's own
	"overflowAlert": true, "characterStrategy": true, "characterFilename": true, "fillDefaults": true,
	"tokenizer": true, "turns": true,
}

// ParseSettings reads settings.sillytavern over the defaults. Unknown keys
// and values of the wrong type are errors, so a misspelt setting is not
// silently ignored.
func ParseSettings(m map[string]any) (Settings, error) {
	s := DefaultSettings()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs []string
	bad := func(k, want string) {
		errs = append(errs, fmt.Sprintf("%s must be %s, not %s", k, want, describe(m[k])))
	}
	for _, k := range keys {
		v := m[k]
		if !settingKeys[k] {
			errs = append(errs, fmt.Sprintf("unknown setting %q", k))
			continue
		}
		if v == nil {
			continue // null: the default
		}
		var ok bool
		switch k {
		case "scanDepth":
			s.ScanDepth, ok = nonNegative(v)
		case "maxRecursionSteps":
			s.MaxRecursionSteps, ok = nonNegative(v)
		case "minActivations":
			s.MinActivations, ok = nonNegative(v)
		case "minActivationsDepthMax":
			s.MinActivationsDepthMax, ok = nonNegative(v)
		case "budget":
			s.Budget, ok = nonNegative(v)
		case "budgetCap":
			s.BudgetCap, ok = nonNegative(v)
		case "maxContext":
			s.MaxContext, ok = nonNegative(v)
		case "caseSensitive":
			s.CaseSensitive, ok = v.(bool)
		case "matchWholeWords":
			s.MatchWholeWords, ok = v.(bool)
		case "includeNames":
			s.IncludeNames, ok = v.(bool)
		case "recursive":
			s.Recursive, ok = v.(bool)
		case "useGroupScoring":
			s.UseGroupScoring, ok = v.(bool)
		case "characterName":
			s.CharacterName, ok = v.(string)
		case "userName":
			s.UserName, ok = v.(string)
		case "generationType":
			s.GenerationType, ok = v.(string)
			ok = ok && contains(generationTypes, s.GenerationType)
		case "characterTags":
			s.CharacterTags, ok = stringList(v)
		case "seed":
			var f float64
			if f, ok = toFloat(v); ok {
				s.Seed = &f
			}
		case "authorsNote":
			ok = parseAuthorsNote(&s.AuthorsNote, v, &errs)
		case "regexScripts":
			var err error
			if s.RegexScripts, err = stregex.Parse(v, "regexScripts"); err != nil {
				errs = append(errs, err.Error())
			}
			ok = true
		case "cardRegexScripts":
			s.CardRegexScripts, ok = v.(bool)
		default:
			ok = true // the oracle harness's own keys
		}
		if !ok {
			want := map[string]string{"characterName": "a string", "userName": "a string", "generationType": "one of " + strings.Join(generationTypes, ", "),
				"characterTags": "a list of strings", "seed": "a number", "authorsNote": "an object",
				"caseSensitive": "true or false", "matchWholeWords": "true or false", "includeNames": "true or false",
				"recursive": "true or false", "useGroupScoring": "true or false", "cardRegexScripts": "true or false"}[k]
			if want == "" {
				want = "a number ≥ 0"
			}
			bad(k, want)
		}
	}
	if len(errs) > 0 {
		return s, fmt.Errorf("settings.sillytavern: %s", strings.Join(errs, "; "))
	}
	return s, nil
}

// DecodeSettings reads settings.sillytavern once, when the inputs are
// loaded (render.SettingsDecoder): a render and lint's questions then read
// the decoded value (settingsOf).
func (eng *Engine) DecodeSettings(in *render.Input) (any, error) {
	s, err := ParseSettings(in.EngineSettings)
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// settingsOf is in's settings: those decoded when the inputs were loaded,
// else settings.sillytavern read now (an Input built by hand).
func settingsOf(in *render.Input) (Settings, error) {
	if s, ok := in.EngineConfig.(*Settings); ok {
		return *s, nil
	}
	return ParseSettings(in.EngineSettings)
}

func parseAuthorsNote(an *AuthorsNote, v any, errs *[]string) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k, x := range m {
		if x == nil {
			continue
		}
		good := true
		switch k {
		case "content":
			an.Content, good = x.(string)
		case "active":
			an.Active, good = x.(bool)
		case "allowWIScan":
			an.AllowWIScan, good = x.(bool)
		case "depth":
			an.Depth, good = nonNegative(x)
		case "role":
			var f float64
			f, good = toFloat(x)
			good = good && (f == 0 || f == 1 || f == 2)
			an.Role = int(f)
		case "position":
			var f float64
			f, good = toFloat(x)
			good = good && f == 1 // in the chat, at a depth: the only placement lore simulates
		default:
			*errs = append(*errs, fmt.Sprintf("authorsNote: unknown key %q", k))
			continue
		}
		if !good {
			*errs = append(*errs, fmt.Sprintf("authorsNote.%s has a wrong value: %s", k, describe(x)))
		}
	}
	return true
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func nonNegative(v any) (float64, bool) {
	f, ok := toFloat(v)
	return f, ok && f >= 0
}

func stringList(v any) ([]string, bool) {
	xs, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		switch s := x.(type) {
		case string:
			out = append(out, s)
		case float64:
			out = append(out, render.FormatValue(s))
		default:
			return nil, false
		}
	}
	return out, true
}

func describe(v any) string {
	switch v.(type) {
	case string:
		return fmt.Sprintf("the string %q", v)
	case bool:
		return fmt.Sprintf("%v", v)
	case float64, int, int64:
		return fmt.Sprintf("%v", v)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return "null"
}
