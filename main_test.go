package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lorekit/lore/cmd"
	"github.com/lorekit/lore/internal/golden"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the real lore entry point as a command, so the
// scripts in testdata/script exercise the built program: flags, exit codes,
// stdout and stderr exactly as a user sees them.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"lore": func() { os.Exit(cmd.Main(os.Args[1:], cmd.StdIO())) },
	})
}

// TestScripts runs every testdata/script/*.txtar. Each script starts in a fresh
// work directory with the repository's fixtures copied in as $WORK/fixtures.
// go test -run TestScripts -update rewrites the expected output in the scripts.
func TestScripts(t *testing.T) {
	fixtures, err := filepath.Abs("fixtures")
	if err != nil {
		t.Fatal(err)
	}
	corpus, _ := filepath.Abs(filepath.Join("..", "shared", "corpus"))
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "script"),
		UpdateScripts: golden.Update(),
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"exits": exits},
		Setup: func(env *testscript.Env) error {
			env.Setenv("FIXTURES", fixtures)
			env.Setenv("CORPUS", corpus)
			env.Setenv("REPO", filepath.Dir(fixtures))
			env.Setenv("NO_COLOR", "")
			return nil
		},
	})
}

// exits N PROGRAM ARGS... runs a program like exec and checks its exit code:
// bad usage must be 2 and findings 1, which '! exec' cannot tell apart.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit code", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}
