package cmd

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// renderModes are render's flags for engines with state and chance
// (SillyTavern's timed effects and probability): several seeds, several
// generations.
type renderModes struct {
	runs    int
	turns   bool
	turnsAt string
}

func (o *renderModes) register(f *pflag.FlagSet) {
	f.IntVar(&o.runs, "runs", 0, "render N times, seeds --seed … --seed+N-1, and print how often each entry is in the prompt")
	f.BoolVar(&o.turns, "turns", false, "replay the transcript one generation per assistant message, carrying timed effects and the random stream")
	f.StringVar(&o.turnsAt, "turns-at", "", "render one generation per chat prefix of these lengths (L1,L2,…), in order, carrying state")
}

// check refuses combinations that mean nothing.
func (o *renderModes) check(explain, format string) error {
	if o.runs < 0 {
		return usageErr("--runs must be a positive number of renders, not %d", o.runs)
	}
	if o.turns && o.turnsAt != "" {
		return usageErr("--turns and --turns-at are alternatives: give one")
	}
	if o.runs > 0 && (o.turns || o.turnsAt != "" || explain != "") {
		return usageErr("--runs counts single renders: it does not combine with --turns, --turns-at or --explain")
	}
	if (o.turns || o.turnsAt != "") && explain != "" && format == "json" {
		return usageErr("--explain with --turns prints text: drop --format json")
	}
	return nil
}

// applySettings takes the seed from the engine's settings (settings.sillytavern's
// seed, or --st-settings's) when --seed is not given: the oracle's settings
// files carry one.
func (o *renderModes) applySettings(f *pflag.FlagSet, ch *chat) error {
	s, ok := ch.in.EngineSettings["seed"]
	if !ok {
		return nil
	}
	if !f.Changed("seed") {
		switch n := s.(type) {
		case int:
			ch.in.Seed = int64(n)
		case float64:
			ch.in.Seed = int64(n)
		}
	}
	settings := maps.Clone(ch.in.EngineSettings)
	delete(settings, "seed") // decided here: --seed, else the settings' seed
	ch.in.EngineSettings = settings
	return nil
}

// lengths are the chat prefixes to generate at: --turns-at's list, or for
// --turns one generation before each assistant message after the first
// message, and one after a final user message.
func (o *renderModes) lengths(t *schema.Transcript) ([]int, error) {
	if o.turnsAt != "" {
		var out []int
		for _, s := range strings.Split(o.turnsAt, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 0 {
				return nil, usageErr("--turns-at: %q is not a chat length (a number of messages)", s)
			}
			out = append(out, n)
		}
		return out, nil
	}
	var out []int
	msgs := t.Messages
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role == "assistant" {
			out = append(out, i)
		}
	}
	if n := len(msgs); n > 0 && msgs[n-1].Role == "user" {
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, usageErr("--turns: the transcript has no assistant message after the first and does not end with a user message: nothing to generate")
	}
	return out, nil
}

// renderTurns renders and prints one generation per chat prefix, each as
// soon as the engine hands it over: nothing of a generation is kept once it
// is printed.
func renderTurns(iox *IO, ch *chat, o *renderModes, opts *renderOptions, color bool) error {
	lengths, err := o.lengths(ch.in.Transcript)
	if err != nil {
		return err
	}
	tw, err := output.NewTurnWriter(iox.Stdout, opts.format, color)
	if err != nil && opts.explain == "" {
		return usageErr("%v", err)
	}
	limited, said := false, map[string]bool{}
	err = render.StreamTurns(ch.eng, ch.in, lengths, func(i int, r *render.Result) error {
		if i == 0 {
			limited = printWarnings(iox, &render.Result{Warnings: r.Warnings})
		}
		for _, l := range r.Limits { // each once, though every turn runs into it
			if !said[l] {
				said[l] = true
				limited = printWarnings(iox, &render.Result{Limits: []string{l}}) || limited
			}
		}
		if opts.explain != "" {
			fmt.Fprintf(iox.Stdout, "turn %d · chat length %d\n", i+1, lengths[i])
			return output.WriteExplanation(iox.Stdout, r, opts.explain, color)
		}
		return tw.Turn(i, lengths[i], r)
	})
	if err != nil {
		if _, ok := err.(*exitError); ok {
			return err
		}
		return usageErr("%v", err)
	}
	if opts.explain == "" {
		if err := tw.Close(); err != nil {
			return err
		}
	}
	return limitsErr(limited)
}

// renderRuns renders with N consecutive seeds and prints the frequencies.
func renderRuns(iox *IO, ch *chat, o *renderModes, format string, color bool) error {
	if format != "" && format != "text" && format != "json" && format != "html" {
		return usageErr("--runs prints %s, not %s", strings.Join(output.RunFormats, ", "), format)
	}
	first := ch.in.Seed
	results := make([]*render.Result, 0, o.runs)
	bar := startProgress(iox, o.runs, "rendering")
	defer bar.done()
	for k := 0; k < o.runs; k++ {
		in := *ch.in
		in.Seed = first + int64(k)
		r, err := ch.eng.Render(&in)
		if err != nil {
			return usageErr("%v", err)
		}
		if k == 0 {
			printWarnings(iox, r)
		}
		results = append(results, r)
		bar.add(1)
	}
	bar.done()
	ids := make([]string, 0, len(ch.in.Book.Entries))
	for _, e := range ch.in.Book.Entries {
		ids = append(ids, e.ID)
	}
	return output.WriteRuns(iox.Stdout, format, output.CountRuns(ids, results, first), color)
}

// printWarnings prints a render's warnings, then the bounds it ran into
// (Result.Limits), and says whether there were any of those: the command
// then exits 1, since its output is not what the engine would send.
func printWarnings(iox *IO, r *render.Result) (limited bool) {
	for _, w := range r.Warnings {
		fmt.Fprintf(iox.Stderr, "lore: warning: %s\n", diag.Printable(w))
	}
	for _, l := range r.Limits {
		fmt.Fprintf(iox.Stderr, "lore: error: %s\n", diag.Printable(l))
	}
	return len(r.Limits) > 0
}

// limitsErr is the exit of a command whose render ran into a bound.
func limitsErr(limited bool) error {
	if limited {
		return exitCode(ExitFindings)
	}
	return nil
}
