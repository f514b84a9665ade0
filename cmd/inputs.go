package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/lint"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
	"github.com/spf13/pflag"
)

// chatFlags are the inputs and settings that render and tokens share.
type chatFlags struct {
	transcript string
	vars       string
	config     string
	seed       int64
	context    int
	reserve    int
	tokenizer  string
	engine     string
	stSettings string
}

func (o *chatFlags) register(f *pflag.FlagSet) {
	f.StringVarP(&o.transcript, "transcript", "t", "", "transcript to render against (YAML/JSON, OpenAI messages, SillyTavern .jsonl)")
	f.StringVar(&o.vars, "vars", "", "variables file (variable id: value), overriding the manifest's defaults")
	f.StringVar(&o.config, "config", "", "use this .lore.yaml instead of looking upward from LOREBOOK")
	f.Int64Var(&o.seed, "seed", 0, "seed for {{random::a::b}} macros")
	f.IntVar(&o.context, "context", 0, "context window in tokens (overrides settings.contextTokens)")
	f.IntVar(&o.reserve, "reserve", 0, "tokens kept free for the reply (overrides settings.responseReserve)")
	f.StringVar(&o.tokenizer, "tokenizer", "", "tokenizer: "+strings.Join(tokenize.Names(), ", ")+" (overrides settings.tokenizer)")
	f.StringVar(&o.stSettings, "st-settings", "", "SillyTavern's World Info settings (settings.sillytavern as a JSON or YAML file) for --engine sillytavern")
	f.StringVar(&o.engine, "engine", "", "engine to simulate: "+strings.Join(engine.Names(), ", ")+" (overrides settings.engine; default "+engine.Default+")")
}

// chat is a loaded render input and the engine that renders it.
type chat struct {
	in  *render.Input
	eng render.Engine
}

// loadChat loads the lorebook, transcript and variables file and resolves the
// settings (flags > manifest > .lore.yaml > defaults). Problems in the inputs are
// printed on stderr as file:line:col; they stop the command, with exit 2 when a
// file cannot be read and 1 when it reads but has errors, because a prompt built
// from a half-understood lorebook would mislead more than it helps.
func loadChat(iox *IO, f *pflag.FlagSet, o *chatFlags, path string, color looks) (*chat, error) {
	// Every caller counts tokens: the vocabulary decodes on the other core
	// while the book is read (a manifest that names another tokenizer only
	// wastes that work).
	if f.Changed("tokenizer") {
		tokenize.Preload(o.tokenizer)
	} else {
		tokenize.Preload(tokenize.Default)
	}
	var all []diag.Diagnostic
	unreadable := false
	note := func(file string, ds []diag.Diagnostic, err error) {
		all = append(all, ds...)
		if err != nil {
			unreadable = true
			all = append(all, schema.ErrorDiagnostics(file, err)...)
		}
	}

	book, ds, err := openLorebook(iox, path)
	note(path, ds, err)
	tr := &schema.Transcript{}
	if o.transcript != "" {
		t, ds, err := loadTranscriptFile(iox, o.transcript)
		note(o.transcript, ds, err)
		if t != nil {
			tr = t
		}
	}
	var vars map[string]any
	if o.vars != "" {
		v, ds, err := loadVarsFile(iox, o.vars)
		note(o.vars, ds, err)
		if v != nil {
			vars = v.Values
		}
	}
	cfgPath := o.config
	if cfgPath == "" {
		cfgPath = lint.FindConfig(iox.inputName(path))
	}
	cfg := &lint.Config{}
	if cfgPath != "" {
		c, ds, err := loadConfigFile(cfgPath)
		note(cfgPath, ds, err)
		if c != nil && err == nil && len(ds) == 0 {
			cfg = c
		} else {
			unreadable = true // a broken configuration is a usage error, as in lint
		}
	}

	if errs, _, _ := diag.Count(all); unreadable || errs > 0 || book == nil {
		if err := printErrors(iox.Stderr, all, color); err != nil {
			return nil, err
		}
		if unreadable || book == nil {
			return nil, exitCode(ExitUsage)
		}
		return nil, exitCode(ExitFindings)
	}

	s := cfg.Settings(book)
	if f.Changed("context") {
		if o.context <= 0 {
			return nil, usageErr("--context must be a positive number of tokens, not %d", o.context)
		}
		s.ContextTokens = o.context
	}
	if f.Changed("reserve") {
		if o.reserve < 0 {
			return nil, usageErr("--reserve must not be negative, not %d", o.reserve)
		}
		s.ResponseReserve = o.reserve
	}
	if err := checkRoom(s, f, cfg, book); err != nil {
		return nil, err
	}
	if f.Changed("tokenizer") {
		s.Tokenizer = o.tokenizer
	}
	if s.Tokenizer == "" {
		s.Tokenizer = tokenize.Default
	}
	counter, err := tokenize.Get(s.Tokenizer)
	if err != nil {
		return nil, usageErr("%v%s", err, didYouMean(s.Tokenizer, tokenize.Names()))
	}
	eng, err := pickEngine(iox, o.engine, book)
	if err != nil {
		return nil, err
	}
	in := &render.Input{Book: book, Transcript: tr, Vars: vars, Settings: s, Seed: o.seed, Counter: counter,
		EngineSettings: s.Engines[eng.Name()]}
	if o.stSettings != "" {
		if eng.Name() != "sillytavern" {
			return nil, usageErr("--st-settings is for --engine sillytavern; this command uses %s", eng.Name())
		}
		if in.EngineSettings, err = stSettings(o.stSettings, in.EngineSettings); err != nil {
			return nil, err
		}
	}
	return &chat{in: in, eng: eng}, nil
}

// pickEngine is --engine, else the manifest's settings.engine, else the
// engine of the format the book was read from (a SillyTavern book or card
// read directly renders as SillyTavern would, said on stderr), else lore's.
func pickEngine(iox *IO, flag string, book *schema.Lorebook) (render.Engine, error) {
	name, byFormat := engine.Choose(flag, book)
	if byFormat {
		fmt.Fprintf(iox.Stderr, "lore: %s is a %s file: rendering as %s would (--engine %s to change)\n",
			book.Path, book.Format, engine.Title(name), engine.Default)
	}
	eng, err := engine.Get(name)
	if err != nil {
		if flag != "" {
			return nil, usageErr("--engine: %v%s", err, didYouMean(flag, engine.Names()))
		}
		return nil, usageErr("%s: settings.engine: %v%s", book.Path, err, didYouMean(name, engine.Names()))
	}
	return eng, nil
}

// checkRoom refuses settings that leave nothing for the prompt: a response
// reserve as large as the context window. The message says where each value
// comes from (a flag, the manifest with its position, .lore.yaml or lore's
// default), since that is what the user has to change.
func checkRoom(s schema.Settings, f *pflag.FlagSet, cfg *lint.Config, book *schema.Lorebook) error {
	if s.ResponseReserve < s.ContextTokens {
		return nil
	}
	from := func(flag, key string) string {
		if f.Changed(flag) {
			return "--" + flag
		}
		if p, ok := book.Manifest.Settings.Fields[key]; ok {
			return fmt.Sprintf("settings.%s at %s", key, p)
		}
		if cfg.Path != "" && (key == "contextTokens" && cfg.ContextTokens > 0 || key == "responseReserve" && cfg.ResponseReserve > 0) {
			return fmt.Sprintf("%s in %s", key, cfg.Path)
		}
		return "lore's default"
	}
	return usageErr("the response reserve (%d tokens, %s) is not below the context window (%d tokens, %s): nothing is left for the prompt; raise the context or lower the reserve",
		s.ResponseReserve, from("reserve", "responseReserve"), s.ContextTokens, from("context", "contextTokens"))
}

// printErrors prints the error-level diagnostics of the inputs (warnings and
// import notes are lint's business) as file:line:col lines.
func printErrors(w io.Writer, ds []diag.Diagnostic, color looks) error {
	var errs []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	pr, err := diag.NewPrinter("text", color.diagOptions())
	if err != nil {
		return err
	}
	return pr.Print(w, diag.Sort(errs))
}

// diagPrinter is the printer for --format: SARIF carries every rule's
// description and help link (validate's findings are lint's schema rule),
// the other formats come from diag.
func diagPrinter(format string, color looks) (diag.Printer, error) {
	if format == "sarif" {
		return &diag.SARIFPrinter{Rules: lint.RuleInfos(), Version: Version}, nil
	}
	pr, err := diag.NewPrinter(format, color.diagOptions())
	if err != nil {
		return nil, usageErr("%v%s", err, didYouMean(format, diag.Formats()))
	}
	return pr, nil
}

// openLorebook loads the LOREBOOK argument, refusing a file of another kind
// (a transcript, a variables file) with the flag it belongs to. A file is read
// and parsed once for both.
func openLorebook(iox *IO, path string) (*schema.Lorebook, []diag.Diagnostic, error) {
	return openBook(iox, path, "--transcript", "--vars")
}
