package cmd

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
)

// Standard input, as linters read it: "-" where a file is named (the
// LOREBOOK or PATH, --transcript, --vars) reads the file from stdin, once,
// with the limits of every file. --stdin-filename names it, for positions,
// for what it is (a .jsonl chat, a .json file) and for finding .lore.yaml
// upward from it, as eslint's and ruff's do; else it is "<stdin>". Nothing
// else knows about stdin: each loader is given the bytes and the name.

// stdinArg is the argument that means standard input.
const stdinArg = "-"

// stdinDefault is standard input's name without --stdin-filename.
const stdinDefault = "<stdin>"

// stdinInput is what the command read from standard input.
type stdinInput struct {
	name  string // --stdin-filename
	role  string // the argument or flag it was read for
	data  []byte
	err   error
	ready bool
}

// addStdinFlag registers --stdin-filename on c.
func addStdinFlag(c *cobra.Command, iox *IO) {
	c.Flags().StringVar(&iox.in.name, "stdin-filename", "",
		"the name of what - reads from standard input: for positions, for what it is (chat.jsonl) and for finding .lore.yaml")
}

// oneStdin refuses two inputs given as - (arguments, --transcript,
// --vars): there is one standard input. Commands check it with their
// arguments, before reading anything.
func oneStdin(c *cobra.Command, args []string) error {
	var from []string
	for _, a := range args {
		if a == stdinArg {
			from = append(from, "an argument")
		}
	}
	for _, name := range []string{"transcript", "vars"} {
		if f := c.Flags().Lookup(name); f != nil && f.Value.String() == stdinArg {
			from = append(from, "--"+name)
		}
	}
	if len(from) > 1 {
		return usageErr("%s are -: only one input can come from standard input; see '%s --help'", strings.Join(from, " and "), c.CommandPath())
	}
	return nil
}

// inputName is what a named input is called: standard input's name for -.
func (iox *IO) inputName(p string) string {
	if p != stdinArg {
		return p
	}
	if iox.in != nil && iox.in.name != "" {
		return iox.in.name
	}
	return stdinDefault
}

// readStdin reads standard input once, for role ("LOREBOOK",
// "--transcript"…): a second input given as - is bad usage, since there is
// one standard input.
func (iox *IO) readStdin(role string) (string, []byte, error) {
	in := iox.in
	name := iox.inputName(stdinArg)
	switch {
	case in.ready && in.role != role:
		return name, nil, usageErr("%s and %s are both -: only one input can come from standard input", in.role, role)
	case in.ready:
		return name, in.data, in.err
	}
	in.ready, in.role = true, role
	var b bytes.Buffer
	if iox.Stdin != nil {
		if _, err := b.ReadFrom(io.LimitReader(iox.Stdin, schema.MaxFileSize+1)); err != nil {
			in.err = &schema.ParseError{Pos: diag.Pos{File: name}, Msg: fmt.Sprintf("cannot read standard input: %v", err)}
		}
	}
	if b.Len() > schema.MaxFileSize {
		in.err = &schema.ParseError{Pos: diag.Pos{File: name}, Msg: fmt.Sprintf("standard input is over the %d-byte limit: lorebooks are text; is this the right input?", schema.MaxFileSize)}
	}
	in.data = b.Bytes()
	return name, in.data, in.err
}

// readInput is the bytes of p (a file, or - for standard input) and its name.
func (iox *IO) readInput(p, role string) (string, []byte, error) {
	if p == stdinArg {
		return iox.readStdin(role)
	}
	data, err := schema.ReadBytes(p)
	return p, data, err
}

// stdinSource is formats.ReadSource for -.
func (iox *IO) stdinSource(role string) (*formats.Source, error) {
	name, data, err := iox.readStdin(role)
	if err != nil {
		return nil, err
	}
	return formats.SourceFrom(name, data), nil
}

// sourceLines is diag.FileSource, with standard input's lines under its
// name once it is read: an excerpt shows what was read, not a file on disk
// that --stdin-filename names (an editor's unsaved buffer differs from it).
func (iox *IO) sourceLines() func(file string, line int) (string, bool) {
	files := diag.FileSource()
	var withStdin func(string, int) (string, bool)
	return func(file string, line int) (string, bool) {
		if in := iox.in; in != nil && in.ready && in.err == nil {
			if withStdin == nil {
				withStdin = diag.WithText(iox.inputName(stdinArg), in.data, files)
			}
			return withStdin(file, line)
		}
		return files(file, line)
	}
}
