package cmd

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/lsp"
)

func newLSPCmd(iox *IO) *cobra.Command {
	var stdio bool
	c := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server (LSP over standard input and output) for editors",
		Long: `lsp is a Language Server Protocol server on standard input and output: an
editor starts it and, while you type, it shows every validate and lint
finding of the lorebook you edit (the unsaved text, re-read 150 ms after you
stop typing and on save), with quick fixes for what 'lore lint --fix' repairs,
formatting by 'lore fmt', hover (where an entry lands, its token cost, what a
keyword activates, a variable's value), go to definition and references
between keywords and the entries that mention them, completion of field
names, enum values and variable ids, and an outline of the entries.

A folder with lorebook.yaml is one book; any other lorebook file (lore's own
or a foreign format) is a book of its own. .lore.yaml applies as in lint.
The client's initializationOptions (or the "lore" settings section) may set
  {"vars": "vars.yaml", "engine": "sillytavern"}
docs/editors.md shows VS Code, Neovim, Helix and Zed set up.`,
		Example: `  lore lsp            # started by the editor, not by hand`,
		Args:    args(0, 0, "", ""),
		RunE: func(c *cobra.Command, _ []string) error {
			s := lsp.New()
			s.Version = Version
			s.Log = iox.Stderr
			err := s.Serve(context.Background(), stdioOf(iox))
			if errors.Is(err, lsp.ErrNoShutdown) {
				return exitCode(ExitFindings)
			}
			return err
		},
	}
	c.Flags().BoolVar(&stdio, "stdio", true, "speak LSP on standard input and output (the only transport; accepted for clients that pass it)")
	return c
}

// stdioOf is the command's standard input and output as one connection.
func stdioOf(iox *IO) io.ReadWriteCloser {
	r, w := iox.Stdin, iox.Stdout
	if r == nil {
		r = strings.NewReader("")
	}
	if w == nil {
		w = io.Discard
	}
	return &rwc{r: r, w: w}
}

type rwc struct {
	r io.Reader
	w io.Writer
}

func (c *rwc) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c *rwc) Write(p []byte) (int, error) { return c.w.Write(p) }
func (c *rwc) Close() error {
	if cl, ok := c.r.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}
