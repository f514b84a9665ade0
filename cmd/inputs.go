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
	"github.com/lorekit/lore/settings"
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
	force      []string // --force-activate
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
	f.StringSliceVar(&o.force, "force-activate", nil, "entries activated from outside the scan, by uid or id, as SillyTavern's Vector Storage does (settings.sillytavern.forceActivate; --engine sillytavern)")
	f.StringVar(&o.engine, "engine", "", "engine to simulate: "+strings.Join(engine.Names(), ", ")+" (overrides settings.engine; default "+engine.Default+")")
}

// chat is a loaded render input and the engine that renders it.
type chat struct {
	in  *render.Input
	eng render.Engine
	// loaded are the inputs' load diagnostics (warnings, notes), for
	// lint's findings beside the render (lore serve).
	loaded []diag.Diagnostic
}

// loadChat loads the lorebook, transcript and variables file and resolves the
// settings (settings.Resolver: flags and LORE_* variables > manifest >
// .lore.yaml > defaults). Problems in the inputs are printed on stderr as
// file:line:col; they stop the command, with exit 2 when a file cannot be
// read (or a configuration or --st-settings file has errors) and 1 when it
// reads but has errors, because a prompt built from a half-understood
// lorebook would mislead more than it helps. The engine's own settings are
// decoded by chat.decode, once, after the command has adjusted them.
func loadChat(iox *IO, f *pflag.FlagSet, o *chatFlags, path string, color looks) (*chat, error) {
	res := newResolver(f)
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
	// Standard input's .lore.yaml is looked up from its --stdin-filename.
	cfg, cfgPath, ds, err := res.FileFor(iox.inputName(path))
	note(cfgPath, ds, err)
	if cfgPath != "" && (err != nil || len(ds) > 0) {
		unreadable = true // a broken configuration is a usage error, as in lint
	}
	est, ds, err := res.EngineSettings()
	if p, _ := res.EngineSettingsPath(); p != "" {
		note(p, ds, err)
		if len(ds) > 0 {
			unreadable = true // a broken --st-settings file too: it is not the lorebook's
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

	r, err := res.Resolve(book, cfg, est)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	if err := r.CheckRoom(); err != nil {
		return nil, usageErr("%v", err)
	}
	s := r.Settings
	counter, err := tokenize.Get(s.Tokenizer)
	if err != nil {
		return nil, usageErr("%v%s", err, didYouMean(s.Tokenizer, tokenize.Names()))
	}
	eng, err := pickEngine(iox, r.Engine, r.EngineFrom, book)
	if err != nil {
		return nil, err
	}
	if est != nil && eng.Name() != "sillytavern" {
		_, from := res.EngineSettingsPath()
		return nil, usageErr("%s is for --engine sillytavern; this command uses %s", from, eng.Name())
	}
	es := s.Engines[eng.Name()]
	if o.force != nil {
		if eng.Name() != "sillytavern" {
			return nil, usageErr("--force-activate is for --engine sillytavern; this command uses %s", eng.Name())
		}
		es = withForced(es, o.force)
	}
	in := &render.Input{Book: book, Transcript: tr, Vars: vars, Settings: s, Seed: o.seed, Counter: counter,
		EngineSettings: es}
	return &chat{in: in, eng: eng, loaded: all}, nil
}

// withForced is settings.sillytavern with --force-activate's entries as its
// forceActivate (a copy: the manifest's map is left as it is).
func withForced(es map[string]any, ids []string) map[string]any {
	out := make(map[string]any, len(es)+1)
	for k, v := range es {
		out[k] = v
	}
	list := make([]any, len(ids))
	for i, id := range ids {
		list[i] = id
	}
	out["forceActivate"] = list
	return out
}

// decode has the engine decode its own settings (settings.sillytavern with
// --st-settings's keys, settings.yumina) once, for every render of the chat.
func (ch *chat) decode() { render.DecodeEngineSettings(ch.eng, ch.in) }

// newResolver is the settings resolver of a command with flags f: its
// .lore.yaml files are read as --config's are, with the rule ids checked.
func newResolver(f *pflag.FlagSet) *settings.Resolver { return settings.New(f, loadConfigFile) }

// pickEngine is --engine (or LORE_ENGINE: asked, from), else the manifest's
// settings.engine, else the engine of the format the book was read from (a
// SillyTavern book or card read directly renders as SillyTavern would, said
// on stderr), else lore's.
func pickEngine(iox *IO, asked string, from settings.Source, book *schema.Lorebook) (render.Engine, error) {
	name, byFormat := engine.Choose(asked, book)
	if byFormat {
		fmt.Fprintf(iox.Stderr, "lore: %s is a %s file: rendering as %s would (--engine %s to change)\n",
			book.Path, book.Format, engine.Title(name), engine.Default)
	}
	eng, err := engine.Get(name)
	if err != nil {
		if asked != "" {
			return nil, usageErr("%s: %v%s", from, err, didYouMean(asked, engine.Names()))
		}
		return nil, usageErr("%s: settings.engine: %v%s", book.Path, err, didYouMean(name, engine.Names()))
	}
	return eng, nil
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
