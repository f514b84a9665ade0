package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/internal/golden"
	"github.com/lorekit/lore/internal/testcorpus"
	"github.com/lorekit/lore/schema"
)

const formatFixtures = "../fixtures/formats"

func runConvert(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runCmd(t, IO{}, args...)
}

// TestImportGolden: stdout and stderr of `lore import` for a few inputs,
// byte for byte (update with go test ./cmd -update).
func TestImportGolden(t *testing.T) {
	for _, name := range []string{"st_edge_cases.json", "card_v3_both_chunks.png", "novelai_v6.lorebook", "aid_world_info.json", "risu_lorebook.json"} {
		t.Run(name, func(t *testing.T) {
			out, errs, code := runConvert(t, "import", filepath.Join(formatFixtures, name))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			got := []byte("$ lore import " + name + "\n# stderr:\n" + errs + "# stdout:\n" + out)
			golden.Check(t, filepath.Join("testdata", "import", name+".golden"), got)
		})
	}
}

func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	trunc := filepath.Join(dir, "cut.lorebook")
	os.WriteFile(trunc, []byte("{\n  \"lorebookVersion\": 4,\n  \"entries\": [\n    {\"displayName\": "), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"truncated", []string{"import", trunc}, 2, "cut.lorebook:4:21: error: invalid JSON: unexpected end of file (the file looks truncated) [load]"},
		{"invalid", []string{"import", writeFile(t, "invalid.json", "{ invalid\n")}, 2, "invalid.json:1:3: error: invalid JSON"},
		{"bad crc", []string{"import", filepath.Join(formatFixtures, "card_bad_crc.png")}, 2, "fails its CRC check"},
		{"missing", []string{"import", filepath.Join(dir, "nope.json")}, 2, "nope.json"},
		{"format", []string{"import", "--format", "toml", filepath.Join(formatFixtures, "st_empty.json")}, 2, "--format must be yaml or json"},
		{"extension", []string{"import", filepath.Join(formatFixtures, "st_empty.json"), "-o", filepath.Join(dir, "out.txt")}, 2, "want a folder, or a file ending in .yaml"},
		{"same file", []string{"import", filepath.Join(formatFixtures, "st_empty.json"), "-o", filepath.Join(formatFixtures, "st_empty.json")}, 2, "is the input file"},
		{"no args", []string{"import"}, 2, "accepts 1 arg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := runConvert(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
}

// TestImportFolder: -o DIR writes lorebook.yaml + entries/<id>.yaml that load
// clean; a second import refuses the non-empty folder without --force.
func TestImportFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "book") + "/"
	src := filepath.Join(formatFixtures, "st_edge_cases.json")
	if _, errs, code := runConvert(t, "import", src, "-o", out); code != 0 || !strings.Contains(errs, "lore: wrote 12 entries (from sillytavern) to "+out) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "entries", "whisper-at-depth-2.yaml")); err != nil {
		t.Fatal(err)
	}
	lb, ds, err := schema.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if e, _, _ := diag.Count(ds); e > 0 {
		t.Errorf("folder does not validate: %v", ds)
	}
	if len(lb.Entries) != 12 {
		t.Errorf("%d entries, want 12", len(lb.Entries))
	}
	if _, errs, code := runConvert(t, "import", src, "-o", out); code != 2 || !strings.Contains(errs, "not empty (use --force") {
		t.Errorf("second import: exit %d, %s", code, errs)
	}
	if _, errs, code := runConvert(t, "import", filepath.Join(formatFixtures, "agnai_memory.json"), "-o", out, "--force"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, errs)
	}
	ents, _ := os.ReadDir(filepath.Join(out, "entries"))
	if len(ents) != 2 {
		t.Errorf("--force left %d entry files, want the 2 of the new book", len(ents))
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Clean(out)), ".book.lore-*"))
	if len(left) > 0 {
		t.Errorf("temporary folders left behind: %v", left)
	}
}

// TestImportFileJSON: -o FILE.json writes one JSON lorebook that loads clean.
func TestImportFileJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "book.json")
	if _, errs, code := runConvert(t, "import", filepath.Join(formatFixtures, "card_v2_minimal.json"), "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lb, ds, err := schema.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if e, _, _ := diag.Count(ds); e > 0 || lb.Manifest.Character != "Mira" {
		t.Errorf("diagnostics %v, character %q", ds, lb.Manifest.Character)
	}
}

// TestCorpusCommands: every real file of the shared corpus goes through
// import, validate, lint, render and tokens without a crash; broken files
// exit 2 with their position, the others import with exit 0.
func TestCorpusCommands(t *testing.T) {
	files := testcorpus.Files(t)
	tr := writeFile(t, "t.yaml", "messages:\n  - {role: user, content: \"Tell me about the forest, the dragon and Nen.\"}\n")
	for _, f := range files {
		broken := strings.Contains(f, "TRUNCATED") || strings.HasSuffix(f, "invalid.json")
		t.Run(filepath.Base(f), func(t *testing.T) {
			_, errs, code := runConvert(t, "import", f)
			if broken {
				if code != 2 || !strings.Contains(errs, ": error: invalid JSON") {
					t.Errorf("import: exit %d, %s", code, errs)
				}
				return
			}
			if code != 0 {
				t.Errorf("import: exit %d, %s", code, errs)
			}
			for _, args := range [][]string{{"validate", f}, {"lint", f}, {"render", f, "--transcript", tr}, {"tokens", f, "--transcript", tr}} {
				if _, errs, code := runConvert(t, args...); code > 1 {
					t.Errorf("%s: exit %d, %s", args[0], code, errs)
				}
			}
		})
	}
}
