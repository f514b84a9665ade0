package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/schema"
)

type renderOptions struct {
	chatFlags
	modes   renderModes
	format  string
	report  bool
	explain string
	color   string
	watch   bool
}

func newRenderCmd(iox *IO) *cobra.Command {
	opts := &renderOptions{}
	c := &cobra.Command{
		Use:   "render LOREBOOK [--transcript T] [--vars V]",
		Short: "Print the fully assembled prompt for a transcript, with why each entry is there",
		Long: `render activates the lorebook's entries against a transcript, assembles the
prompt in 13 steps (docs/lorebook.md, "Prompt assembly": system presets, persona, format, examples,
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
  html       one self-contained page: the prompt by step, the trace of every
             entry (and why the others are out) and a token chart of the budget
  jsonl      with --turns: one JSON object per generation, printed as it is done

Without --transcript the chat is empty: the prompt holds what is always sent.
--explain ID prints, for one entry, why it is or is not in the prompt: which
keyword matched in which message, or which condition, secondary-keyword rule,
recursion rule or budget share kept it out (as one JSON object with
--format json: id, name, section, file, line, column, inPrompt, activated, step, depth,
trigger, recursion, reasons).

--engine NAME renders as that engine would (docs/engines.md): lore (SPEC's
own engine, the default), or another engine lore simulates; without it, the
manifest's settings.engine decides, and a SillyTavern book or card read
directly renders as SillyTavern would when lore simulates it.

Settings come from the flags (or the LORE_* variables that stand for them:
LORE_CONTEXT, LORE_RESERVE, LORE_TOKENIZER, LORE_ENGINE, LORE_CONFIG,
LORE_ST_SETTINGS), else the manifest, else .lore.yaml (looked up from
LOREBOOK's folder upward, or --config), else lore's defaults.
Exit codes: 0 rendered; 1 the inputs have errors (printed as file:line:col);
2 bad usage or a file that cannot be read.`,
		Example: `  lore render fixtures/eldoria/book --transcript fixtures/eldoria/transcript.yaml --vars fixtures/eldoria/vars.yaml
  lore render book/ --transcript chat.jsonl --format openai | jq '. + {model: "gpt-4o"}'
  lore render book/ --transcript chat.yaml --report --context 4096
  lore render book/ --transcript chat.yaml --explain sleeping-stag`,
		Args: oneLorebook,
		RunE: func(c *cobra.Command, args []string) error {
			if opts.watch {
				if err := refuseStdin("--watch", args[0], opts.transcript, opts.vars); err != nil {
					return err
				}
				stPath, _ := newResolver(c.Flags()).EngineSettingsPath()
				return watchRuns(iox, []string{args[0], opts.transcript, opts.vars, configPath(iox, c.Flags(), args[0]), stPath},
					func() error { return runRender(iox, c, opts, args[0]) })
			}
			return runRender(iox, c, opts, args[0])
		},
	}
	f := c.Flags()
	opts.chatFlags.register(f)
	f.StringVar(&opts.format, "format", "text", "output format: "+strings.Join(output.OutputFormats(), ", "))
	f.BoolVar(&opts.report, "report", false, "append the token budget report (text format)")
	f.StringVar(&opts.explain, "explain", "", "explain why entry ID is or is not in the prompt")
	opts.modes.register(f)
	addWatchFlag(f, &opts.watch)
	addColorFlag(c, &opts.color)
	addStdinFlag(c, iox)
	return c
}

func runRender(iox *IO, c *cobra.Command, opts *renderOptions, path string) error {
	on, err := useColor(iox, opts.color)
	if err != nil {
		return err
	}
	out, err := output.NewOutput(opts.format, output.OutputOptions{Color: on.color, Report: opts.report})
	if err != nil && !(opts.format == "jsonl" && (opts.modes.turns || opts.modes.turnsAt != "")) { // JSON Lines: --turns only
		return usageErr("--format: %v%s", err, didYouMean(opts.format, output.OutputFormats()))
	}
	if err := opts.modes.check(opts.explain, opts.format); err != nil {
		return err
	}

	ch, err := loadChat(iox, c.Flags(), &opts.chatFlags, path, on)
	if err != nil {
		return err
	}
	book := ch.in.Book
	collectLoad(book)
	if opts.explain != "" && !hasEntry(book, opts.explain) {
		msg := fmt.Sprintf("--explain: no entry %q in %s", opts.explain, path)
		var ids []string
		for _, e := range book.Entries {
			ids = append(ids, e.ID)
		}
		if s := output.Suggest(opts.explain, ids); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return usageErr("%s", msg)
	}
	if err := opts.modes.applySettings(c.Flags(), ch); err != nil {
		return err
	}
	ch.decode()
	switch {
	case opts.modes.runs > 0:
		return renderRuns(iox, ch, &opts.modes, opts.format, on.color)
	case opts.modes.turns || opts.modes.turnsAt != "":
		return renderTurns(iox, ch, &opts.modes, opts, on.color)
	}

	// The text without --report, JSON and the API payloads show what is
	// sent, not the sizes of what was left out.
	ch.in.SentOnly = opts.explain == "" && !opts.report && opts.format != "html"
	res, err := ch.eng.Render(ch.in)
	if err != nil {
		return usageErr("%v", err)
	}
	limited := printWarnings(iox, res)
	switch {
	case opts.explain != "" && opts.format == "json":
		err = output.WriteExplanationJSON(iox.Stdout, res, opts.explain)
	case opts.explain != "":
		err = output.WriteExplanation(iox.Stdout, res, opts.explain, on.color)
	default:
		err = out.Write(iox.Stdout, res)
	}
	if err != nil {
		return err
	}
	return limitsErr(limited)
}

func hasEntry(book *schema.Lorebook, id string) bool {
	for _, e := range book.Entries {
		if e.ID == id {
			return true
		}
	}
	return false
}
