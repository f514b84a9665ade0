package testrun

import (
	"errors"
	"fmt"
	"maps"
	"sync"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
	"github.com/lorekit/lore/tokenize"
)

// memo loads each file once however many cases use it, from any goroutine.
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]*loaded[T]
}

type loaded[T any] struct {
	once sync.Once
	v    T
	ds   []diag.Diagnostic
	err  error
}

func (c *memo[T]) get(key string, load func() (T, []diag.Diagnostic, error)) (T, []diag.Diagnostic, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*loaded[T]{}
	}
	l, ok := c.m[key]
	if !ok {
		l = &loaded[T]{}
		c.m[key] = l
	}
	c.mu.Unlock()
	l.once.Do(func() { l.v, l.ds, l.err = load() })
	return l.v, l.ds, l.err
}

// book is a loaded lorebook with its settings: the manifest's over the
// .lore.yaml that applies to it, over lore's defaults.
type book struct {
	lb       *schema.Lorebook
	settings schema.Settings
}

// loader holds every input file the run has read.
type loader struct {
	// getEngine is engine.Get; tests give engines of their own.
	getEngine func(name string) (render.Engine, error)
	// settings finds each lorebook's .lore.yaml (or --config's) and
	// resolves its settings.
	settings *settings.Resolver

	books       memo[*book]
	engines     memo[render.Engine] // one per name: an engine may keep per-lorebook indexes between renders
	transcripts memo[*schema.Transcript]
	varFiles    memo[map[string]any]
}

// errUnreadable marks an input that could not be read at all (exit 2), as
// opposed to one that reads but has errors (the case fails).
var errUnreadable = errors.New("unreadable input")

// inputError is why a case could not be rendered: the diagnostics of its
// inputs (printed once per run, however many cases share the input).
type inputError struct {
	pos        Pos // the test file's line that names the input
	msg        string
	ds         []diag.Diagnostic
	unreadable bool
}

func (e *inputError) Error() string { return e.msg }

// at sets where the test file names the input, when e is an error.
func (e *inputError) at(p Pos) {
	if e != nil {
		e.pos = p
	}
}

// check turns a load's outcome into an inputError when it has errors.
func check(what, path string, ds []diag.Diagnostic, err error) *inputError {
	var errs []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if err != nil {
		errs = append(errs, schema.ErrorDiagnostics(path, err)...)
		return &inputError{msg: fmt.Sprintf("%s %s cannot be read", what, path), ds: errs, unreadable: true}
	}
	if len(errs) > 0 {
		return &inputError{msg: fmt.Sprintf("%s %s has %d %s", what, path, len(errs), plural(len(errs), "error", "errors")), ds: errs}
	}
	return nil
}

func (l *loader) book(path string) (*book, *inputError) {
	b, ds, err := l.books.get(path, func() (*book, []diag.Diagnostic, error) {
		lb, ds, err := formats.Open(path)
		if err != nil || lb == nil {
			return nil, ds, err
		}
		cfg, cp, cds, err := l.settings.FileFor(path)
		if ie := check("the configuration", cp, cds, err); ie != nil {
			// A broken .lore.yaml would silently change the settings.
			return nil, append(ds, ie.ds...), errUnreadable
		}
		r, err := l.settings.Resolve(lb, cfg, nil)
		if err != nil {
			return nil, ds, err
		}
		return &book{lb: lb, settings: r.Settings}, ds, nil
	})
	if errors.Is(err, errUnreadable) {
		return nil, &inputError{msg: "the configuration of " + path + " has errors", ds: ds, unreadable: true}
	}
	if ie := check("the lorebook", path, ds, err); ie != nil {
		return nil, ie
	}
	return b, nil
}

func (l *loader) transcript(src TranscriptSource) (t *schema.Transcript, ie *inputError) {
	defer func() { ie.at(src.Pos) }()
	switch {
	case src.Inline != nil:
		return src.Inline, nil
	case src.Path == "":
		return &schema.Transcript{}, nil
	}
	t, ds, err := l.transcripts.get(src.Path, func() (*schema.Transcript, []diag.Diagnostic, error) {
		return schema.LoadTranscript(src.Path)
	})
	if ie := check("the transcript", src.Path, ds, err); ie != nil {
		return nil, ie
	}
	return t, nil
}

func (l *loader) vars(srcs []VarsSource) (map[string]any, *inputError) {
	out := map[string]any{}
	for _, src := range srcs {
		vals := src.Values
		if src.Path != "" {
			v, ds, err := l.varFiles.get(src.Path, func() (map[string]any, []diag.Diagnostic, error) {
				v, ds, err := schema.LoadVars(src.Path)
				if v == nil {
					return nil, ds, err
				}
				return v.Values, ds, err
			})
			if ie := check("the variables file", src.Path, ds, err); ie != nil {
				ie.pos = src.Pos
				return nil, ie
			}
			vals = v
		}
		maps.Copy(out, vals)
	}
	return out, nil
}

// prepared is what a case renders: the input of its last (longest) turn, the
// engine, and each turn's chat length.
type prepared struct {
	in      *render.Input
	eng     render.Engine
	lengths []int
}

// prepare loads a case's inputs and picks its engine: --engine, else the
// case's (or its file's), else the manifest's settings.engine, else the
// engine of the format the lorebook was read from, else lore's.
func (l *loader) prepare(c *Case, override string) (*prepared, *inputError) {
	b, ie := l.book(c.File.Lorebook.V)
	if ie != nil {
		ie.pos = c.File.Lorebook.Pos
		return nil, ie
	}
	tr, ie := l.transcript(c.Transcript)
	if ie != nil {
		return nil, ie
	}
	vars, ie := l.vars(c.Vars)
	if ie != nil {
		return nil, ie
	}
	// The test file's and the case's settings over the lorebook's, key by key.
	s := settings.Over(b.settings, c.Settings)
	if s.ResponseReserve >= s.ContextTokens {
		return nil, &inputError{pos: settingPos(c, "contextTokens", "responseReserve"), unreadable: true,
			msg: fmt.Sprintf("the response reserve (%d tokens) is not below the context window (%d tokens): nothing is left for the prompt",
				s.ResponseReserve, s.ContextTokens)}
	}
	counter, err := tokenize.Get(s.Tokenizer)
	if err != nil {
		return nil, &inputError{pos: c.Pos, msg: err.Error(), unreadable: true}
	}
	asked, where := override, c.Pos
	if asked == "" && c.Engine.V != "" {
		asked, where = c.Engine.V, c.Engine.Pos
	}
	name, _ := engine.Choose(asked, b.lb)
	eng, _, err := l.engines.get(name, func() (render.Engine, []diag.Diagnostic, error) {
		eng, err := l.getEngine(name)
		return eng, nil, err
	})
	if err != nil {
		return nil, &inputError{pos: where, msg: err.Error(), unreadable: true}
	}

	// The whole chat: the transcript, then each turn's messages.
	full := *tr
	full.Messages = tr.Messages[:len(tr.Messages):len(tr.Messages)]
	lengths := make([]int, len(c.Turns))
	for i, t := range c.Turns {
		full.Messages = append(full.Messages, t.Messages...)
		lengths[i] = len(full.Messages)
		if t.At != nil {
			lengths[i] = t.At.V
		}
	}
	for i, t := range c.Turns {
		if t.At == nil {
			continue
		}
		if t.At.V > len(full.Messages) {
			return nil, &inputError{pos: t.At.Pos, msg: fmt.Sprintf("turn %d renders the first %d messages, but the chat has %d",
				i+1, t.At.V, len(full.Messages)), unreadable: true}
		}
		if i > 0 && t.At.V < lengths[i-1] {
			return nil, &inputError{pos: t.At.Pos, msg: fmt.Sprintf("turn %d renders the first %d messages, fewer than turn %d (%d): turns render the chat forwards",
				i+1, t.At.V, i, lengths[i-1]), unreadable: true}
		}
	}
	in := &render.Input{Book: b.lb, Transcript: &full, Vars: vars, Settings: s, Seed: c.Seed,
		Counter: counter, EngineSettings: s.Engines[eng.Name()]}
	render.DecodeEngineSettings(eng, in) // once for every turn and run of the case
	return &prepared{in: in, eng: eng, lengths: lengths}, nil
}

// settingPos is where the case's (or its file's) settings last set one of
// keys, else the case.
func settingPos(c *Case, keys ...string) Pos {
	for i := len(c.Settings) - 1; i >= 0; i-- {
		for _, k := range keys {
			if p, ok := c.Settings[i].Fields[k]; ok {
				return p
			}
		}
	}
	return c.Pos
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
