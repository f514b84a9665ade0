package testrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestIsTestFile(t *testing.T) {
	for path, want := range map[string]bool{
		"lore.test.yaml":              true,
		"a/b/lore.test.yml":           true,
		"a/LORE.TEST.JSON":            true,
		"a/tests/x.yaml":              true,
		"a/tests/x.json":              true,
		"a/tests/x.schema.json":       false,
		"a/tests/chats/x.yaml":        false,
		"a/tests/__snapshots__/x.txt": false,
		"a/tests/readme.md":           false,
		"a/test/x.yaml":               false,
		"a/lore.yaml":                 false,
	} {
		if got := IsTestFile(filepath.FromSlash(path)); got != want {
			t.Errorf("IsTestFile(%s) = %v, want %v", path, got, want)
		}
	}
}

func TestLoadResolvesAndLayers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "proj", "tests", "t.yaml")
	writeFile(t, path, `lorebook: ../book
vars: {a: 1, b: 2}
settings: {contextTokens: 4096, sillytavern: {scanDepth: 2, budget: 5}}
seed: 7
cases:
  - name: one
    vars: {b: 3}
    settings: {shares: {cards: 0.5}, sillytavern: {scanDepth: 4}}
    transcript:
      summary: so far
      messages: [{role: user, content: hi}]
    expect:
      snapshot: {name: s, format: json}
  - name: two
    transcript: chats/long.yaml
    seed: 9
    runs: 5
    expect: {frequency: {x: {min: 10}}}
`)
	f, ds, err := Load(path)
	if err != nil || len(ds) > 0 {
		t.Fatalf("%v %v", err, ds)
	}
	if f.Project != filepath.Join(dir, "proj") || f.Lorebook.V != filepath.Join(dir, "proj", "book") {
		t.Errorf("project %s, lorebook %s", f.Project, f.Lorebook.V)
	}
	one, two := f.Cases[0], f.Cases[1]
	if one.Seed != 7 || two.Seed != 9 || one.Runs != 1 || two.Runs != 5 {
		t.Errorf("seeds %d %d, runs %d %d", one.Seed, two.Seed, one.Runs, two.Runs)
	}
	if one.Transcript.Inline == nil || one.Transcript.Inline.Summary != "so far" || len(one.Transcript.Inline.Messages) != 1 {
		t.Errorf("inline transcript %+v", one.Transcript)
	}
	if two.Transcript.Path != filepath.Join(dir, "proj", "tests", "chats", "long.yaml") {
		t.Errorf("transcript path %s", two.Transcript.Path)
	}
	if s := one.Turns[0].Expect.Snapshot; s.Path != filepath.Join(dir, "proj", "tests", SnapshotDir, "s.json") || s.Pos.Line != 13 {
		t.Errorf("snapshot %+v", s)
	}

	vars, ie := (&loader{}).vars(one.Vars)
	if ie != nil || vars["a"] != 1.0 || vars["b"] != 3.0 {
		t.Errorf("vars %v %v", vars, ie)
	}
	base := schema.DefaultSettings()
	base.Engines = map[string]map[string]any{"sillytavern": {"depth": 1.0}}
	s := settings.Over(base, one.Settings)
	if s.ContextTokens != 4096 || s.Shares.Cards != 0.5 || s.Shares.History != 0.5 || s.ResponseReserve != 1024 {
		t.Errorf("settings %+v", s)
	}
	if st := s.Engines["sillytavern"]; st["scanDepth"] != 4.0 || st["budget"] != 5.0 || st["depth"] != 1.0 {
		t.Errorf("engine settings %v", st)
	}
	if base.Engines["sillytavern"]["scanDepth"] != nil {
		t.Error("the lorebook's settings were changed")
	}
}

func TestLoadRefuses(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"not a mapping", "- a\n", "a test file is a mapping with lorebook: and cases:, not a list"},
		{"no lorebook", "cases: [{name: a, expect: {active: [x]}}]\n", `missing required field "lorebook"`},
		{"nothing to check", "lorebook: b\ncases: [{name: a}]\n", `case "a" has nothing to check`},
		{"expect and turns", "lorebook: b\ncases: [{name: a, expect: {}, turns: [{expect: {}}]}]\n", "has both expect: and turns:"},
		{"turn without expect", "lorebook: b\ncases: [{name: a, turns: [{at: 1}]}]\n", "this turn has nothing to check"},
		{"frequency without runs", "lorebook: b\ncases: [{name: a, expect: {frequency: {x: {min: 1}}}}]\n", "give the case runs: N"},
		{"turns backwards", "lorebook: b\ncases: [{name: a, turns: [{at: 3, expect: {}}, {at: 2, expect: {}}]}]\n", "turn at 2 comes after a turn at 3"},
		{"min above max", "lorebook: b\ncases: [{name: a, expect: {tokens: {total: {min: 9, max: 1}}}}]\n", "min 9 is above max 1"},
		{"duplicate name", "lorebook: b\ncases: [{name: a, expect: {}}, {name: a, expect: {}}]\n", `a second case named "a"`},
		{"duplicate key", "lorebook: b\nlorebook: c\ncases: [{name: a, expect: {}}]\n", `field "lorebook" is given twice`},
		{"engine in settings", "lorebook: b\nsettings: {engine: lore}\ncases: [{name: a, expect: {}}]\n", "settings.engine is not allowed here"},
		{"bad message", "lorebook: b\ncases: [{name: a, turns: [{messages: [{role: bot, content: x}], expect: {}}]}]\n", "role must be one of user, assistant, system"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.yaml")
			writeFile(t, path, tc.text)
			f, ds, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var msgs []string
			for _, d := range ds {
				msgs = append(msgs, d.Pos().String()+": "+d.Message)
			}
			if f != nil || !strings.Contains(strings.Join(msgs, "\n"), tc.want) {
				t.Errorf("file %v, diagnostics:\n%s\nwant %q", f != nil, strings.Join(msgs, "\n"), tc.want)
			}
		})
	}
}

func TestCheckSnapshotNames(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "book.yaml"), "entries: [{id: a, section: chat-history, content: x}]\n")
	writeFile(t, filepath.Join(dir, "tests", "a.yaml"), "lorebook: ../book.yaml\ncases: [{name: a, expect: {snapshot: s}}]\n")
	writeFile(t, filepath.Join(dir, "tests", "b.yaml"), "lorebook: ../book.yaml\ncases: [{name: b, expect: {snapshot: s}}]\n")
	rep := Run([]Target{{Path: filepath.Join(dir, "tests", "a.yaml")}, {Path: filepath.Join(dir, "tests", "b.yaml")}}, Options{})
	if !rep.Unusable || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].Message, `snapshot "s" is also the snapshot at `) {
		t.Errorf("%+v", rep.Problems)
	}
}
