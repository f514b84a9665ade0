package cmd

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

type tokensOptions struct {
	transcript string
	vars       string
	format     string
	tokenizer  string
	context    int
	reserve    int
	seed       int64
	color      string
}

func newTokensCmd(iox *IO) *cobra.Command {
	opts := &tokensOptions{}
	c := &cobra.Command{
		Use:   "tokens LOREBOOK",
		Short: "Token usage per budget section against the Required cap and the Dynamic shares",
		Long: `tokens counts what a lorebook costs in the model's context (SPEC §4).

With --transcript it renders the prompt for that chat and reports, for each
budget section, the tokens it holds, its cap or share, and what was cut or left
out and why. Without a transcript it reports the always-sent (Required) pieces
against the cap and every story card's size against the cards share for the
manifest's context size, flagging cards too large ever to be included.

--format json prints the report object of SPEC §7 alone. --context, --reserve
and --tokenizer override the manifest's settings.`,
		Example: `  lore tokens fixtures/eldoria/book --transcript fixtures/eldoria/transcript.yaml
  lore tokens book/ --context 16384 --tokenizer cl100k_base
  lore tokens book/ --transcript chat.yaml --format json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTokens(cmd, iox, opts, args[0])
		},
	}
	f := c.Flags()
	f.StringVarP(&opts.transcript, "transcript", "t", "", "chat to render against (YAML/JSON, OpenAI messages or SillyTavern .jsonl)")
	f.StringVar(&opts.vars, "vars", "", "variables file overriding the manifest's defaults")
	f.StringVar(&opts.format, "format", "text", "output format: text or json")
	f.StringVar(&opts.tokenizer, "tokenizer", "", "tokenizer: o200k_base, cl100k_base or chars4 (default: the manifest's)")
	f.IntVar(&opts.context, "context", 0, "context window in tokens (default: the manifest's contextTokens)")
	f.IntVar(&opts.reserve, "reserve", 0, "tokens kept free for the reply (default: the manifest's responseReserve)")
	f.Int64Var(&opts.seed, "seed", 0, "seed for {{random}} macros")
	// --color takes a value like every other command's (auto|always|never):
	// a bare --color would make `--color never` parse "never" as the lorebook.
	addColorFlag(c, &opts.color)
	return c
}

func runTokens(cmd *cobra.Command, iox *IO, opts *tokensOptions, path string) error {
	on, err := useColor(iox, opts.color)
	if err != nil {
		return err
	}
	if opts.format != "text" && opts.format != "json" {
		return usageErr("--format must be text or json, not %q", opts.format)
	}
	book, ds, err := formats.Open(path)
	if err != nil {
		return usageErr("%v", err)
	}
	in := &render.Input{Book: book, Seed: opts.seed}
	if opts.transcript != "" {
		tr, tds, err := schema.LoadTranscript(opts.transcript)
		if err != nil {
			return usageErr("%v", err)
		}
		ds = append(ds, tds...)
		in.Transcript = tr
	}
	if opts.vars != "" {
		vs, vds, err := schema.LoadVars(opts.vars)
		if err != nil {
			return usageErr("%v", err)
		}
		ds = append(ds, vds...)
		if vs != nil {
			in.Vars = vs.Values
		}
	}
	in.Settings, err = tokensSettings(cmd, opts, book)
	if err != nil {
		return err
	}
	if in.Counter, err = tokenize.Get(in.Settings.Tokenizer); err != nil {
		return usageErr("%v", err)
	}

	// Problems in the inputs go to stderr; the report is still printed, since
	// the budget of what did load is what the user asked for.
	errs := printLoadDiagnostics(iox.Stderr, ds, on)

	if opts.transcript == "" {
		sz := render.SizeUp(in)
		if err := writeTokens(iox.Stdout, opts.format, sz.Report, func(w io.Writer) error { return sz.WriteText(w, on) }); err != nil {
			return err
		}
	} else {
		res, err := render.Render(in)
		if err != nil {
			return usageErr("%v", err)
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(iox.Stderr, "lore: warning: %s\n", w)
		}
		if err := writeTokens(iox.Stdout, opts.format, res.Report, func(w io.Writer) error { return res.Report.WriteText(w, on) }); err != nil {
			return err
		}
	}
	if errs > 0 {
		return exitCode(ExitFindings)
	}
	return nil
}

// tokensSettings applies the precedence flags > manifest > defaults (the
// loader starts the manifest's settings from the defaults).
func tokensSettings(cmd *cobra.Command, opts *tokensOptions, book *schema.Lorebook) (schema.Settings, error) {
	s := book.Manifest.Settings
	if s.ContextTokens == 0 && s.Tokenizer == "" {
		s = schema.DefaultSettings()
	}
	fl := cmd.Flags()
	if fl.Changed("context") {
		if opts.context <= 0 {
			return s, usageErr("--context must be a positive number of tokens, not %d", opts.context)
		}
		s.ContextTokens = opts.context
	}
	if fl.Changed("reserve") {
		if opts.reserve < 0 {
			return s, usageErr("--reserve must not be negative, not %d", opts.reserve)
		}
		s.ResponseReserve = opts.reserve
	}
	if fl.Changed("tokenizer") {
		s.Tokenizer = opts.tokenizer
	}
	if s.Tokenizer == "" {
		s.Tokenizer = tokenize.Default
	}
	return s, nil
}

// printLoadDiagnostics prints the inputs' diagnostics on stderr and returns
// how many are errors.
func printLoadDiagnostics(w io.Writer, ds []diag.Diagnostic, color bool) int {
	if len(ds) == 0 {
		return 0
	}
	ds = diag.Sort(ds)
	pr, err := diag.NewPrinter("text", diag.Options{Color: color, Source: diag.FileSource()})
	if err == nil {
		_ = pr.Print(w, ds)
	}
	errs, _, _ := diag.Count(ds)
	return errs
}

func writeTokens(w io.Writer, format string, r *render.Report, text func(io.Writer) error) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return text(w)
}
