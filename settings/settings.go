// Package settings resolves the settings a command runs with, in one place
// for every command (lint, render, tokens, test, import) and for lore test's
// cases: the command line — a flag, or the LORE_* environment variable that
// stands for it — then the lorebook's manifest, then .lore.yaml, then lore's
// defaults. Every value comes with where it came from (a flag, a variable,
// the manifest's or the file's line and column, the default), since that is
// what a message has to name for the user to change it.
//
// viper holds the command-line layer: each command's flags are bound to it
// (BindPFlag) with their variables (BindEnv), so a flag wins over its
// variable. .lore.yaml and an --st-settings file are read with yaml.v3 and
// lore's schema, whose nodes keep the line and column viper's maps drop.
package settings

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// Kind is what set a value, from the weakest source to the strongest.
type Kind int

const (
	// Default is lore's default: nothing set the value.
	Default Kind = iota
	// FromFile is .lore.yaml (or --config's file).
	FromFile
	// Manifest is the lorebook's own settings.
	Manifest
	// Env is a LORE_* environment variable.
	Env
	// Flag is a command-line flag.
	Flag
)

// Source is where a value came from.
type Source struct {
	Kind Kind
	// Name is the flag ("--context") or the variable ("LORE_CONTEXT") for
	// Flag and Env, the settings key ("contextTokens") otherwise.
	Name string
	// Pos is where the manifest or .lore.yaml sets the value.
	Pos diag.Pos
}

// String names the source as messages do: "--context", "LORE_CONTEXT",
// "settings.contextTokens at book.yaml:3:18", "contextTokens in
// /books/.lore.yaml" or "lore's default".
func (s Source) String() string {
	switch s.Kind {
	case Flag, Env:
		return s.Name
	case Manifest:
		return fmt.Sprintf("settings.%s at %s", s.Name, s.Pos)
	case FromFile:
		return fmt.Sprintf("%s in %s", s.Name, s.Pos.File)
	}
	return "lore's default"
}

// A binding is a flag of the commands that take it and the environment
// variable that stands for it when the flag is not given.
type binding struct{ flag, env string }

// bindings are every flag that sets a setting. A command binds those it has:
// LORE_RESERVE means --reserve, so it is read by render and tokens, which
// take --reserve, and not by lint, which does not.
var bindings = []binding{
	{"context", "LORE_CONTEXT"},
	{"reserve", "LORE_RESERVE"},
	{"tokenizer", "LORE_TOKENIZER"},
	{"engine", "LORE_ENGINE"},
	{"config", "LORE_CONFIG"},
	{"st-settings", "LORE_ST_SETTINGS"},
}

// Variables lists the environment variables and the flags they stand for, for
// documentation.
func Variables() [][2]string {
	out := make([][2]string, len(bindings))
	for i, b := range bindings {
		out[i] = [2]string{b.env, "--" + b.flag}
	}
	return out
}

// Resolver resolves the settings of one command run. It is safe for
// concurrent use (lore test resolves its lorebooks in parallel).
type Resolver struct {
	v     *viper.Viper
	flags *pflag.FlagSet
	bound map[string]binding
	load  func(path string) (*File, []diag.Diagnostic, error)

	overOnce sync.Once
	over     overrides

	mu    sync.Mutex
	files map[string]*loadedFile

	engineOnce sync.Once
	engine     loadedEngine
}

type loadedFile struct {
	once sync.Once
	f    *File
	ds   []diag.Diagnostic
	err  error
}

type loadedEngine struct {
	es  *schema.EngineSettings
	ds  []diag.Diagnostic
	err error
}

// New is a Resolver for a command whose flags are flags (nil: none, and no
// environment variables either). load reads a .lore.yaml; nil is LoadFile
// without checking rule ids.
func New(flags *pflag.FlagSet, load func(path string) (*File, []diag.Diagnostic, error)) *Resolver {
	r := &Resolver{v: viper.New(), flags: flags, bound: map[string]binding{}, load: load, files: map[string]*loadedFile{}}
	if r.load == nil {
		r.load = func(p string) (*File, []diag.Diagnostic, error) { return LoadFile(p, nil) }
	}
	if flags == nil {
		return r
	}
	for _, b := range bindings {
		f := flags.Lookup(b.flag)
		if f == nil {
			continue
		}
		// Neither fails for a flag that exists and a variable name given.
		_ = r.v.BindPFlag(b.flag, f)
		_ = r.v.BindEnv(b.flag, b.env)
		r.bound[b.flag] = b
	}
	return r
}

// given is the value the command line gives the flag, else its environment
// variable (an empty variable is unset), and which of them gave it.
func (r *Resolver) given(flag string) (any, Source, bool) {
	b, ok := r.bound[flag]
	if !ok || !r.v.IsSet(flag) {
		return nil, Source{}, false
	}
	src := Source{Kind: Env, Name: b.env}
	if r.flags.Changed(flag) {
		src = Source{Kind: Flag, Name: "--" + flag}
	}
	return r.v.Get(flag), src, true
}

// givenString is given for a flag that takes text.
func (r *Resolver) givenString(flag string) (string, Source) {
	v, src, ok := r.given(flag)
	if !ok {
		return "", Source{}
	}
	return fmt.Sprint(v), src
}

// overrides are the settings the command line and the environment give,
// checked once.
type overrides struct {
	context, reserve int
	tokenizer        string
	from             map[string]Source // by settings key
	err              error
}

func (r *Resolver) overrides() *overrides {
	r.overOnce.Do(func() {
		o := &r.over
		o.from = map[string]Source{}
		whole := func(flag, key, rule string, ok func(int) bool) int {
			v, src, set := r.given(flag)
			if !set || o.err != nil {
				return 0
			}
			n, isInt := v.(int)
			if !isInt {
				var err error
				if n, err = strconv.Atoi(strings.TrimSpace(fmt.Sprint(v))); err != nil {
					o.err = fmt.Errorf("%s must be a whole number of tokens, not %q", src.Name, fmt.Sprint(v))
					return 0
				}
			}
			if !ok(n) {
				o.err = fmt.Errorf("%s %s, not %d", src.Name, rule, n)
				return 0
			}
			o.from[key] = src
			return n
		}
		o.context = whole("context", "contextTokens", "must be a positive number of tokens", func(n int) bool { return n > 0 })
		o.reserve = whole("reserve", "responseReserve", "must not be negative", func(n int) bool { return n >= 0 })
		if o.err != nil {
			return
		}
		if name, src := r.givenString("tokenizer"); src.Kind != Default {
			if name == "" {
				name = tokenize.Default // --tokenizer "": the default, whatever the manifest says
			}
			if _, err := tokenize.Get(name); err != nil {
				if s := diag.Suggest(name, tokenize.Names()); s != "" && s != name {
					err = fmt.Errorf("%w (did you mean %q?)", err, s)
				}
				if src.Kind == Env {
					o.err = fmt.Errorf("%s: %w", src.Name, err)
				} else {
					o.err = err
				}
				return
			}
			o.tokenizer, o.from["tokenizer"] = name, src
		}
	})
	return &r.over
}

// Check reports a flag or variable whose value cannot be used (--context 0,
// LORE_RESERVE=lots, an unknown --tokenizer), before anything is loaded.
func (r *Resolver) Check() error { return r.overrides().err }

// Tokenizer is the tokenizer the command line or the environment asks for,
// "" when neither does or the name is unknown (Check says so).
func (r *Resolver) Tokenizer() string { return r.overrides().tokenizer }

// Engine is the engine the command line or the environment asks for, and
// which asked; "" when neither does (the lorebook's settings.engine, else
// its format, decides: engine.Choose).
func (r *Resolver) Engine() (string, Source) { return r.givenString("engine") }

// ConfigPath is the .lore.yaml the command line or the environment names
// (--config, LORE_CONFIG) for every lorebook, "" for none.
func (r *Resolver) ConfigPath() (string, Source) { return r.givenString("config") }

// EngineSettingsPath is the engine settings file asked for (--st-settings,
// LORE_ST_SETTINGS), "" for none.
func (r *Resolver) EngineSettingsPath() (string, Source) { return r.givenString("st-settings") }

// FileFor is the .lore.yaml that applies to the lorebook at path — --config's
// (or LORE_CONFIG's) when given, else the first found upward from path — and
// its path; nil and "" when there is none. Each file is loaded once however
// many lorebooks share it; its problems come back with it.
func (r *Resolver) FileFor(path string) (*File, string, []diag.Diagnostic, error) {
	p, _ := r.ConfigPath()
	if p == "" {
		p = Find(path)
	}
	if p == "" {
		return nil, "", nil, nil
	}
	r.mu.Lock()
	l, ok := r.files[p]
	if !ok {
		l = &loadedFile{}
		r.files[p] = l
	}
	r.mu.Unlock()
	l.once.Do(func() { l.f, l.ds, l.err = r.load(p) })
	return l.f, p, l.ds, l.err
}

// EngineSettings is the engine settings file the command line or the
// environment names (--st-settings: SillyTavern's World Info settings), read
// and checked against settings.sillytavern's schema once, with its problems
// at their line and column of that file; nil when none is named.
func (r *Resolver) EngineSettings() (*schema.EngineSettings, []diag.Diagnostic, error) {
	r.engineOnce.Do(func() {
		if p, _ := r.EngineSettingsPath(); p != "" {
			r.engine.es, r.engine.ds, r.engine.err = schema.LoadEngineSettings(p, "sillytavern")
		}
	})
	return r.engine.es, r.engine.ds, r.engine.err
}

// Resolved is the settings of one lorebook and where each came from.
type Resolved struct {
	// Settings are the manifest's, with .lore.yaml filling what it leaves
	// unset and the command line's over both; Settings.Engines holds the
	// engine settings file's keys laid over the manifest's.
	Settings schema.Settings
	// Engine is the engine the command line or the environment asks for
	// ("" when neither does), EngineFrom which one.
	Engine     string
	EngineFrom Source
	// File is the .lore.yaml that applied (nil when none did).
	File *File
	from map[string]Source
}

// From is where the value of key (contextTokens, responseReserve,
// tokenizer, engine) came from.
func (r *Resolved) From(key string) Source {
	if s, ok := r.from[key]; ok {
		return s
	}
	return Source{Kind: Default, Name: key}
}

// Of is the settings of book with file's defaults (may be nil) and nothing
// from the command line: what lint assumes when no command resolved them.
func Of(book *schema.Lorebook, file *File) *Resolved {
	s := book.Manifest.Settings
	if s.ContextTokens <= 0 {
		// A hand-built or foreign lorebook may carry no settings at all.
		fields := s.Fields
		s = schema.DefaultSettings()
		s.Fields = fields
	}
	res := &Resolved{File: file, from: map[string]Source{}}
	for _, key := range []string{"contextTokens", "responseReserve", "tokenizer", "engine"} {
		if p, ok := s.Fields[key]; ok {
			res.from[key] = Source{Kind: Manifest, Name: key, Pos: p}
		}
	}
	fromFile := func(key string, set bool) bool {
		if _, manifest := s.Fields[key]; manifest || !set {
			return false
		}
		res.from[key] = Source{Kind: FromFile, Name: key, Pos: file.Fields[key]}
		return true
	}
	if file != nil {
		if fromFile("tokenizer", file.Tokenizer != "") {
			s.Tokenizer = file.Tokenizer
		}
		if fromFile("contextTokens", file.ContextTokens > 0) {
			s.ContextTokens = file.ContextTokens
		}
		if fromFile("responseReserve", file.has("responseReserve")) {
			s.ResponseReserve = file.ResponseReserve
		}
	}
	if s.Tokenizer == "" {
		s.Tokenizer = tokenize.Default
	}
	res.Settings = s
	return res
}

// Resolve is the settings of book: the command line's and the environment's
// over the manifest's, over file's (may be nil), over lore's defaults, with
// the keys of an engine settings file (may be nil: EngineSettings) laid over
// the manifest's settings object of that engine. Its error is Check's.
func (r *Resolver) Resolve(book *schema.Lorebook, file *File, es *schema.EngineSettings) (*Resolved, error) {
	o := r.overrides()
	if o.err != nil {
		return nil, o.err
	}
	res := Of(book, file)
	s := &res.Settings
	if src, ok := o.from["contextTokens"]; ok {
		s.ContextTokens, res.from["contextTokens"] = o.context, src
	}
	if src, ok := o.from["responseReserve"]; ok {
		s.ResponseReserve, res.from["responseReserve"] = o.reserve, src
	}
	if src, ok := o.from["tokenizer"]; ok {
		s.Tokenizer, res.from["tokenizer"] = o.tokenizer, src
	}
	if name, src := r.Engine(); name != "" {
		res.Engine, res.EngineFrom, res.from["engine"] = name, src, src
	}
	if es != nil {
		s.Engines = LayEngine(s.Engines, es.Engine, es.Values)
	}
	return res, nil
}

// LayEngine is engines (by engine name, never changed) with over's keys laid
// over the named engine's object, key by key, in new maps.
func LayEngine(engines map[string]map[string]any, name string, over map[string]any) map[string]map[string]any {
	out := make(map[string]map[string]any, len(engines)+1)
	for n, obj := range engines {
		out[n] = obj
	}
	merged := maps.Clone(engines[name])
	if merged == nil {
		merged = map[string]any{}
	}
	maps.Copy(merged, over)
	out[name] = merged
	return out
}

// CheckRoom refuses settings that leave nothing for the prompt: a response
// reserve as large as the context window. The message says where each value
// comes from, since that is what the user has to change.
func (r *Resolved) CheckRoom() error {
	s := r.Settings
	if s.ResponseReserve < s.ContextTokens {
		return nil
	}
	return fmt.Errorf("the response reserve (%d tokens, %s) is not below the context window (%d tokens, %s): nothing is left for the prompt; raise the context or lower the reserve",
		s.ResponseReserve, r.From("responseReserve"), s.ContextTokens, r.From("contextTokens"))
}

// Over lays layers of settings (a test file's, then a case's) over base, key
// by key as each layer's Fields name them; an engine's settings object merges
// key by key too. base is not changed.
func Over(base schema.Settings, layers []schema.Settings) schema.Settings {
	s := base
	s.Engines = map[string]map[string]any{}
	for name, obj := range base.Engines {
		s.Engines[name] = maps.Clone(obj)
	}
	for _, l := range layers {
		for key := range l.Fields {
			switch key {
			case "contextTokens":
				s.ContextTokens = l.ContextTokens
			case "responseReserve":
				s.ResponseReserve = l.ResponseReserve
			case "tokenizer":
				s.Tokenizer = l.Tokenizer
			case "requiredCap":
				s.RequiredCap = l.RequiredCap
			case "recursionLimit":
				s.RecursionLimit = l.RecursionLimit
			case "shares.cards":
				s.Shares.Cards = l.Shares.Cards
			case "shares.history":
				s.Shares.History = l.Shares.History
			case "shares.memory":
				s.Shares.Memory = l.Shares.Memory
			}
		}
		for name, obj := range l.Engines {
			if s.Engines[name] == nil {
				s.Engines[name] = map[string]any{}
			}
			maps.Copy(s.Engines[name], obj)
		}
	}
	if s.Tokenizer == "" {
		s.Tokenizer = tokenize.Default
	}
	return s
}
