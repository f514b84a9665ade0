// Package cmd holds lore's cobra commands, one file per subcommand. Commands take
// their I/O from an IO value and report their exit code instead of calling
// os.Exit, so tests run them in-process. Commands parse flags, load inputs and
// print; the work itself lives in schema, formats, render, lint and diag.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// Exit codes (README: "Exit codes").
const (
	ExitOK       = 0 // clean
	ExitFindings = 1 // findings at error level (or warnings with --strict)
	ExitUsage    = 2 // bad usage or unreadable input
)

// Version is stamped by the release build (-ldflags -X).
var (
	Version = "dev"
	Commit  = "none"
	Date    = "unknown"
)

// IO is where a command reads and writes. Env looks up environment variables
// (NO_COLOR); IsTerminal says whether Stdout is a terminal.
type IO struct {
	Stdin      io.Reader
	Stdout     io.Writer
	Stderr     io.Writer
	Env        func(string) (string, bool)
	IsTerminal bool
}

// exitError carries an exit code out of a command's RunE. A nil err means the
// code alone is the result (the command already printed what it had to).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exitCode returns an error that makes Main exit with code after printing nothing.
func exitCode(code int) error { return &exitError{code: code} }

// usageErr makes Main print "lore: <msg>" and exit 2.
func usageErr(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// Main runs lore with args (without the program name) and returns the exit code.
func Main(args []string, iox IO) int {
	if iox.Env == nil {
		iox.Env = func(string) (string, bool) { return "", false }
	}
	root := newRootCmd(&iox)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(iox.Stderr, "lore: %v\n", ee.err)
		}
		return ee.code
	}
	// cobra's own errors: unknown command, bad flag, wrong argument count.
	fmt.Fprintf(iox.Stderr, "lore: %v\nRun 'lore --help' for usage.\n", err)
	return ExitUsage
}

func newRootCmd(iox *IO) *cobra.Command {
	root := &cobra.Command{
		Use:   "lore",
		Short: "Lint, render and convert AI-roleplay lorebooks",
		Long: `lore checks lorebooks (entries an AI-roleplay engine puts into a model's prompt)
offline and exactly: schema errors with file:line:col, lint rules, the fully
assembled prompt for a transcript with a trace of why every entry is there, token
usage against the context budget, and conversion from SillyTavern, Character Cards,
NovelAI, AI Dungeon, Agnai and RisuAI.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	root.SetIn(iox.Stdin)
	root.SetOut(iox.Stdout)
	root.SetErr(iox.Stderr)
	root.SetVersionTemplate("lore {{.Version}}\n")
	root.AddCommand(
		newValidateCmd(iox),
		newLintCmd(iox),
		newRenderCmd(iox),
		newTokensCmd(iox),
		newTestCmd(iox),
		newImportCmd(iox),
		newExportCmd(iox),
		newSchemaCmd(iox),
		newInitCmd(iox),
		newFmtCmd(iox),
		newRulesCmd(iox),
		newVersionCmd(iox),
	)
	return root
}

// StdIO is the process's real I/O.
func StdIO() IO {
	return IO{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Env:        os.LookupEnv,
		IsTerminal: isTerminal(os.Stdout),
	}
}
