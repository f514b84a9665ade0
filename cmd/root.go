// Package cmd holds lore's cobra commands, one file per subcommand. Commands take
// their I/O from an IO value and report their exit code instead of calling
// os.Exit, so tests run them in-process. Commands parse flags, load inputs and
// print; the work itself lives in schema, formats, render, lint and diag.
package cmd

import (
	"errors"
	"fmt"
	"github.com/lorekit/lore/diag"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
// (NO_COLOR); IsTerminal says whether Stdout is a terminal, StderrTerminal
// whether Stderr is (progress bars are drawn only there).
type IO struct {
	Stdin          io.Reader
	Stdout         io.Writer
	Stderr         io.Writer
	Env            func(string) (string, bool)
	IsTerminal     bool
	StderrTerminal bool

	in *stdinInput // what "-" read (stdin.go)
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

// findingsExit is the exit of a command that reports findings: 2 when some
// input could not be used, 1 for an error (or, with --strict, a warning)
// among ds, else 0.
func findingsExit(ds []diag.Diagnostic, unusable, strict bool) error {
	errs, warns, _ := diag.Count(ds)
	switch {
	case unusable:
		return exitCode(ExitUsage)
	case errs > 0, strict && warns > 0:
		return exitCode(ExitFindings)
	}
	return nil
}

// usageErr makes Main print "lore: <msg>" and exit 2.
func usageErr(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// Main runs lore with args (without the program name) and returns the exit code.
func Main(args []string, iox IO) int {
	defer endPace()
	if iox.Env == nil {
		iox.Env = func(string) (string, bool) { return "", false }
	}
	// A failed write (a closed pipe, a full disk) is remembered, so that no
	// command can end with exit 0 after output that never arrived.
	stdout, stderr := &stickyWriter{w: iox.Stdout}, &stickyWriter{w: iox.Stderr}
	iox.Stdout, iox.Stderr = stdout, stderr
	root := newRootCmd(&iox)
	root.SetArgs(args)
	err := root.Execute()
	if stdout.err != nil {
		fmt.Fprintf(stderr, "lore: cannot write the output: %v\n", stdout.err)
		return ExitUsage
	}
	if stderr.err != nil {
		return ExitUsage
	}
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "lore: %v\n", ee.err)
		}
		return ee.code
	}
	// cobra's own errors: unknown command, bad flag, wrong argument count.
	fmt.Fprintf(stderr, "lore: %v\nRun 'lore --help' for usage.\n", err)
	return ExitUsage
}

// stickyWriter passes writes on and keeps the first error, after which it
// writes nothing more.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	s.err = err
	return n, err
}

func newRootCmd(iox *IO) *cobra.Command {
	if iox.in == nil {
		iox.in = &stdinInput{}
	}
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
	root.SetFlagErrorFunc(flagError)
	root.SetHelpCommand(newHelpCmd())
	root.AddCommand(
		newValidateCmd(iox),
		newLintCmd(iox),
		newRenderCmd(iox),
		newServeCmd(iox),
		newTokensCmd(iox),
		newTestCmd(iox),
		newCheckReplyCmd(iox),
		newImportCmd(iox),
		newExportCmd(iox),
		newSchemaCmd(iox),
		newLSPCmd(iox),
		newInitCmd(iox),
		newFmtCmd(iox),
		newRulesCmd(iox),
		newVersionCmd(iox),
	)
	strictCompletion(root)
	return root
}

// flagError rewords pflag's errors for a value of the wrong type, which
// otherwise leak Go's strconv messages, and points at the command's help.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	var ive *pflag.InvalidValueError
	if errors.As(err, &ive) {
		name, v := "--"+ive.GetFlag().Name, ive.GetValue()
		var ne *strconv.NumError
		switch t := ive.GetFlag().Value.Type(); {
		case errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange):
			msg = fmt.Sprintf("%s %s is out of range", name, v)
		case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
			msg = fmt.Sprintf("%s must be a whole number, not %q", name, v)
		case t == "bool":
			msg = fmt.Sprintf("%s must be true or false, not %q", name, v)
		default:
			msg = fmt.Sprintf("%s: invalid value %q", name, v)
		}
	}
	return usageErr("%s%s (see '%s --help')", msg, unknownFlagHint(c, msg), c.CommandPath())
}

// newHelpCmd is cobra's help command, except that an unknown topic is bad
// usage (exit 2), as it is everywhere else.
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				var names []string
				for _, sub := range c.Root().Commands() {
					names = append(names, sub.Name())
				}
				return usageErr("unknown help topic %q%s; 'lore --help' lists the commands", strings.Join(args, " "), didYouMean(strings.Join(args, " "), names))
			}
			return cmd.Help()
		},
	}
}

// strictCompletion makes cobra's completion command treat a shell it does
// not know (or none) as bad usage: by default it prints its help and exits 0.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, s := range c.Commands() {
			shells = append(shells, s.Name())
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("name a shell: lore completion %s", strings.Join(shells, "|"))
			}
			return usageErr("unknown shell %q%s: lore completion supports %s", args[0], didYouMean(args[0], shells), strings.Join(shells, ", "))
		}
	}
}

// StdIO is the process's real I/O.
func StdIO() IO {
	return IO{
		Stdin:          os.Stdin,
		Stdout:         os.Stdout,
		Stderr:         os.Stderr,
		Env:            os.LookupEnv,
		IsTerminal:     isTerminal(os.Stdout),
		StderrTerminal: isTerminal(os.Stderr),
	}
}
