package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// run is Run as cmd calls it: judging the book by the engine the registry
// gives it (settings.engine, else its format's, else lore's).
func run(book *schema.Lorebook, vars *schema.Vars, cfg *Config) []diag.Diagnostic {
	return runWith(book, vars, cfg, nil)
}

// runWith is RunWith as cmd calls it.
func runWith(book *schema.Lorebook, vars *schema.Vars, cfg *Config, loaded []diag.Diagnostic) []diag.Diagnostic {
	return RunWith(book, vars, withEngines(cfg, "", book), loaded)
}

// withEngines is cfg (nil: none) judging book by the engine asked for, else
// the one the registry gives it, with lore's engine as the base.
func withEngines(cfg *Config, asked string, book *schema.Lorebook) *Config {
	if cfg == nil {
		cfg = &Config{}
	}
	if book == nil {
		return cfg
	}
	base, _ := engine.Get(engine.Default)
	name, _ := engine.Choose(asked, book)
	judge, err := engine.Get(name)
	if err != nil {
		judge = base
	}
	return cfg.WithEngines(judge, base)
}

var _ render.Engine // the engines lint is given are render's

// TestFindingAtItsField: a SillyTavern file's entry that SillyTavern never
// sends because its probability is 0 is reported at probability, not at its
// key: a finding caused by a field points at that field.
func TestFindingAtItsField(t *testing.T) {
	path := filepath.Join(t.TempDir(), "book.json")
	text := `{"entries": {"0": {
  "uid": 0,
  "key": ["storm"],
  "content": "A storm comes.",
  "useProbability": true,
  "probability": 0
}}}`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	book, ds, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range runWith(book, nil, nil, ds) {
		if d.Rule == "unreachable-entry" {
			got = append(got, fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Message))
		}
	}
	want := "6:18 entry \"storm\" can never be sent by SillyTavern: probability 0 with useProbability: its roll never passes; raise the probability or turn useProbability off"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
