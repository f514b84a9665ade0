package cmd

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/lorekit/lore/watch"
)

// clearScreen moves a terminal's cursor home and clears it.
const clearScreen = "\x1b[H\x1b[2J"

// addWatchFlag registers --watch on a command's flags.
func addWatchFlag(f *pflag.FlagSet, on *bool) {
	f.BoolVar(on, "watch", false, "run again on every change to the files (clearing the terminal), until Ctrl-C")
}

// configPath is the .lore.yaml a command with flags f reads for path, if
// any: a file --watch follows too.
func configPath(iox *IO, f *pflag.FlagSet, path string) string {
	_, p, _, _ := newResolver(f).FileFor(iox.inputName(path))
	return p
}

// watchRuns runs run, then again after every change to paths, until
// interrupted: on a terminal the screen is cleared first, so what shows is
// exactly what a normal run prints. A run's error is printed as Main prints
// it and the watch goes on; the exit code is the last run's.
func watchRuns(iox *IO, paths []string, run func() error) error {
	w, err := watch.New(paths, bookExts)
	if err != nil {
		return usageErr("--watch: %v", err)
	}
	defer w.Close()
	ctx, stop := untilInterrupted()
	defer stop()
	for {
		if iox.IsTerminal {
			io.WriteString(iox.Stdout, clearScreen)
		}
		last := run()
		var ee *exitError
		switch {
		case last == nil:
		case errors.As(last, &ee):
			if ee.err != nil {
				fmt.Fprintf(iox.Stderr, "lore: %v\n", ee.err)
			}
		default:
			fmt.Fprintf(iox.Stderr, "lore: %v\n", last)
		}
		fmt.Fprintln(iox.Stderr, "lore: watching the files for changes (Ctrl-C to stop)")
		select {
		case <-ctx.Done():
			if ee != nil {
				return exitCode(ee.code) // printed already
			}
			return last
		case <-w.Changes():
		}
	}
}

// watchLint is lint --watch: every PATH, the variables file and the
// configurations, followed.
func watchLint(iox *IO, opts *lintOptions, paths []string, f *pflag.FlagSet) error {
	if err := refuseStdin("--watch", append([]string{opts.vars}, paths...)...); err != nil {
		return err
	}
	if opts.fix || opts.writeBaseline {
		return usageErr("--watch runs lint again on every change; it does not write: drop --fix or --write-baseline")
	}
	watched := []string{opts.vars, opts.baseline}
	for _, p := range paths {
		watched = append(watched, p, configPath(iox, f, p))
	}
	stPath, _ := newResolver(f).EngineSettingsPath()
	return watchRuns(iox, append(watched, stPath), func() error { return runLint(iox, opts, paths, f) })
}
