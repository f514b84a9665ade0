package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lorekit/lore/cmd"
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
// Set LORE_UPDATE_SCRIPTS=1 to rewrite the expected output in the scripts.
func TestScripts(t *testing.T) {
	fixtures, err := filepath.Abs("fixtures")
	if err != nil {
		t.Fatal(err)
	}
	corpus, _ := filepath.Abs(filepath.Join("..", "shared", "corpus"))
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "script"),
		UpdateScripts: os.Getenv("LORE_UPDATE_SCRIPTS") == "1",
		Setup: func(env *testscript.Env) error {
			env.Setenv("FIXTURES", fixtures)
			env.Setenv("CORPUS", corpus)
			env.Setenv("NO_COLOR", "")
			return nil
		},
	})
}
