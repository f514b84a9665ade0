package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

type renderOptions struct {
	transcript string
	vars       string
	format     string
	seed       int64
	context    int
	reserve    int
	tokenizer  string
	report     bool
	explain    string
	color      string
}

func newRenderCmd(iox *IO) *cobra.Command {
	opts := &renderOptions{}
	c := &cobra.Command{
		Use:   "render LOREBOOK [--transcript T] [--vars V]",
		Short: "Print the fully assembled prompt for a transcript, with why each entry is there",
		Long: `render activates the lorebook's entries against a transcript, assembles the
prompt in the 13 steps of the spec (system presets, persona, format, examples,
triggered entries, summary, memory, history with depth-injected entries,
pending effects, state, post-history), applies the context budget, and prints
the result.

Formats:
  text       each step labelled, each message with its role, the entries in it
             and what triggered them (coloured on a terminal)
  json       {"messages", "activated", "report"}: the stable contract for scripts
  openai     {"messages": [...]}: a Chat Completions body; add "model" and POST it
  anthropic  {"system": [...], "messages": [...]}: a Messages API body, with
             cache_control on the last block before the cache breakpoint

Without --transcript the chat is empty: the prompt holds what is always sent.
--explain ID prints, for one entry, why it is or is not in the prompt: which
keyword matched in which message, or which condition, secondary-keyword rule,
recursion rule or budget share kept it out (as one JSON object with
--format json: id, name, section, file, line, column, inPrompt, step, depth,
trigger, recursion, reasons).

Settings come from the flags, else the manifest, else the defaults.
Exit codes: 0 rendered; 1 the inputs have errors (printed as file:line:col);
2 bad usage or a file that cannot be read.`,
		Example: `  lore render fixtures/eldoria/book --transcript fixtures/eldoria/transcript.yaml --vars fixtures/eldoria/vars.yaml
  lore render book/ --transcript chat.jsonl --format openai | jq '. + {model: "gpt-4o"}'
  lore render book/ --transcript chat.yaml --report --context 4096
  lore render book/ --transcript chat.yaml --explain sleeping-stag`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runRender(iox, c, opts, args[0])
		},
	}
	f := c.Flags()
	f.StringVar(&opts.transcript, "transcript", "", "transcript to render against (YAML/JSON, OpenAI messages, SillyTavern .jsonl)")
	f.StringVar(&opts.vars, "vars", "", "variables file (variable id: value), overriding the manifest's defaults")
	f.StringVar(&opts.format, "format", "text", "output format: "+strings.Join(render.OutputFormats(), ", "))
	f.Int64Var(&opts.seed, "seed", 0, "seed for {{random::a::b}} macros")
	f.IntVar(&opts.context, "context", 0, "context window in tokens (overrides settings.contextTokens)")
	f.IntVar(&opts.reserve, "reserve", 0, "tokens kept free for the reply (overrides settings.responseReserve)")
	f.StringVar(&opts.tokenizer, "tokenizer", "", "tokenizer: "+strings.Join(tokenize.Names(), ", ")+" (overrides settings.tokenizer)")
	f.BoolVar(&opts.report, "report", false, "append the token budget report (text format)")
	f.StringVar(&opts.explain, "explain", "", "explain why entry ID is or is not in the prompt")
	addColorFlag(c, &opts.color)
	return c
}

func runRender(iox *IO, c *cobra.Command, opts *renderOptions, path string) error {
	on, err := useColor(iox, opts.color)
	if err != nil {
		return err
	}
	out, err := render.NewOutput(opts.format, render.OutputOptions{Color: on, Report: opts.report})
	if err != nil {
		return usageErr("--format: %v", err)
	}

	var all []diag.Diagnostic
	unreadable := false
	book, ds, err := formats.Open(path)
	all = append(all, ds...)
	if err != nil {
		unreadable = true
		all = append(all, schema.ErrorDiagnostics(path, err)...)
	}
	tr := &schema.Transcript{}
	if opts.transcript != "" {
		t, ds, err := schema.LoadTranscript(opts.transcript)
		all = append(all, ds...)
		if err != nil {
			unreadable = true
			all = append(all, schema.ErrorDiagnostics(opts.transcript, err)...)
		} else if t != nil {
			tr = t
		}
	}
	var vars map[string]any
	if opts.vars != "" {
		v, ds, err := schema.LoadVars(opts.vars)
		all = append(all, ds...)
		if err != nil {
			unreadable = true
			all = append(all, schema.ErrorDiagnostics(opts.vars, err)...)
		} else if v != nil {
			vars = v.Values
		}
	}
	if errs, _, _ := diag.Count(all); unreadable || errs > 0 || book == nil {
		if err := printLoadErrors(iox.Stderr, all, on); err != nil {
			return err
		}
		if unreadable || book == nil {
			return exitCode(ExitUsage)
		}
		return exitCode(ExitFindings)
	}

	s, counter, err := renderSettings(c, opts, book.Manifest.Settings)
	if err != nil {
		return err
	}
	if opts.explain != "" && !hasEntry(book, opts.explain) {
		msg := fmt.Sprintf("--explain: no entry %q in %s", opts.explain, path)
		var ids []string
		for _, e := range book.Entries {
			ids = append(ids, e.ID)
		}
		if s := render.Suggest(opts.explain, ids); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return usageErr("%s", msg)
	}

	res, err := render.Render(&render.Input{Book: book, Transcript: tr, Vars: vars, Settings: s,
		Seed: opts.seed, Counter: counter})
	if err != nil {
		return usageErr("%v", err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(iox.Stderr, "lore: warning: %s\n", w)
	}
	if opts.explain != "" {
		if opts.format == "json" {
			return render.WriteExplanationJSON(iox.Stdout, res, opts.explain)
		}
		return render.WriteExplanation(iox.Stdout, res, opts.explain, on)
	}
	return out.Write(iox.Stdout, res)
}

// printLoadErrors prints the load diagnostics at error level (warnings are
// lint's business, not render's) as file:line:col lines on stderr.
func printLoadErrors(w io.Writer, ds []diag.Diagnostic, color bool) error {
	var errs []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	pr, err := diag.NewPrinter("text", diag.Options{Color: color, Source: diag.FileSource()})
	if err != nil {
		return err
	}
	return pr.Print(w, diag.Sort(errs))
}

// renderSettings applies the flags over the manifest's settings (which the
// loader already filled with the defaults) and picks the tokenizer.
func renderSettings(c *cobra.Command, opts *renderOptions, s schema.Settings) (schema.Settings, tokenize.Counter, error) {
	f := c.Flags()
	if f.Changed("context") {
		if opts.context <= 0 {
			return s, nil, usageErr("--context must be a positive number of tokens, not %d", opts.context)
		}
		s.ContextTokens = opts.context
	}
	if f.Changed("reserve") {
		if opts.reserve < 0 {
			return s, nil, usageErr("--reserve must not be negative, not %d", opts.reserve)
		}
		s.ResponseReserve = opts.reserve
	}
	if f.Changed("tokenizer") {
		s.Tokenizer = opts.tokenizer
	}
	counter, err := tokenize.Get(s.Tokenizer)
	if err != nil {
		return s, nil, usageErr("%v", err)
	}
	return s, counter, nil
}

func hasEntry(book *schema.Lorebook, id string) bool {
	for _, e := range book.Entries {
		if e.ID == id {
			return true
		}
	}
	return false
}
