// Package output writes a rendered prompt (a render.Result) in each format of
// `lore render --format` — text, json, openai, anthropic, html, one file each —
// plus the budget report and `--explain`. Writers are engine-agnostic: they
// print what the Result holds and decide nothing. Every writer is
// deterministic: the same Result gives the same bytes.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lorekit/lore/render"
)

// Output writes a rendered prompt in one format (SPEC §7 `render --format`).
// Every output is deterministic: the same Result gives the same bytes.
type Output interface {
	Write(w io.Writer, r *render.Result) error
}

// OutputOptions are what the text output needs from the command line; the
// machine formats ignore them.
type OutputOptions struct {
	Color  bool // ANSI colour (a terminal, no NO_COLOR)
	Report bool // append the budget report (--report)
}

// OutputFormats lists the formats NewOutput accepts, default first.
func OutputFormats() []string { return []string{"text", "json", "openai", "anthropic", "html"} }

// NewOutput returns the writer for a format name.
func NewOutput(format string, o OutputOptions) (Output, error) {
	switch format {
	case "text", "":
		return textOutput{o}, nil
	case "json":
		return jsonOutput{}, nil
	case "openai":
		return openaiOutput{}, nil
	case "anthropic":
		return anthropicOutput{}, nil
	case "html":
		return htmlOutput{}, nil
	}
	return nil, fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(OutputFormats(), ", "))
}

// writeJSON prints v with two-space indentation and without HTML escaping:
// prompts are full of <tags> and & that must reach the reader as written.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
