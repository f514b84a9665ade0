package cmd

import (
	"encoding/json"
	"io"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
)

type tokensOptions struct {
	chatFlags
	format string
	color  string
}

func newTokensCmd(iox *IO) *cobra.Command {
	opts := &tokensOptions{}
	c := &cobra.Command{
		Use:   "tokens LOREBOOK",
		Short: "Token usage per budget section against the Required cap and the Dynamic shares",
		Long: `tokens counts what a lorebook costs in the model's context (docs/lorebook.md,
"Context budget").

With --transcript it renders the prompt for that chat and reports, for each
budget section, the tokens it holds, its cap or share, and what was cut or left
out and why. Without a transcript it reports the always-sent (Required) pieces
against the cap and every story card's size against the cards share for the
manifest's context size, flagging cards too large ever to be included (under
--engine sillytavern: every World Info entry's size against its budget).

--format json prints the report object of 'lore render --format json' alone. --context, --reserve
and --tokenizer override the manifest's settings.`,
		Example: `  lore tokens fixtures/eldoria/book --transcript fixtures/eldoria/transcript.yaml
  lore tokens book/ --context 16384 --tokenizer cl100k_base
  lore tokens book/ --transcript chat.yaml --format json`,
		Args: oneLorebook,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTokens(cmd, iox, opts, args[0])
		},
	}
	f := c.Flags()
	opts.chatFlags.register(f)
	f.StringVar(&opts.format, "format", "text", "output format: text or json")
	// --color takes a value like every other command's (auto|always|never):
	// a bare --color would make `--color never` parse "never" as the lorebook.
	addColorFlag(c, &opts.color)
	addStdinFlag(c, iox)
	return c
}

func runTokens(cmd *cobra.Command, iox *IO, opts *tokensOptions, path string) error {
	on, err := useColor(iox, opts.color)
	if err != nil {
		return err
	}
	if opts.format != "text" && opts.format != "json" {
		return usageErr("--format must be text or json, not %q%s", opts.format, didYouMean(opts.format, []string{"text", "json"}))
	}
	ch, err := loadChat(iox, cmd.Flags(), &opts.chatFlags, path, on)
	if err != nil {
		return err
	}
	collectLoad(ch.in.Book)
	ch.decode()

	if sizer, ok := ch.eng.(render.Sizer); ok && opts.transcript == "" {
		sz := sizer.SizeUp(ch.in)
		limited := printWarnings(iox, &render.Result{Limits: sz.Limits})
		if err := writeTokens(iox.Stdout, opts.format, sz.Report, func(w io.Writer) error { return output.WriteSizing(w, sz, on.color) }); err != nil {
			return err
		}
		if limited {
			return limitsErr(limited)
		}
	} else {
		res, err := ch.eng.Render(ch.in)
		if err != nil {
			return usageErr("%v", err)
		}
		limited := printWarnings(iox, res)
		if err := writeTokens(iox.Stdout, opts.format, res.Report, func(w io.Writer) error { return output.WriteReport(w, res.Report, on.color) }); err != nil {
			return err
		}
		return limitsErr(limited)
	}
	return nil
}

func writeTokens(w io.Writer, format string, r *render.Report, text func(io.Writer) error) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return text(w)
}
