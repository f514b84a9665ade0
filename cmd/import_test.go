package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
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
		{"no args", []string{"import"}, 2, "import needs a FILE to import"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := runConvert(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
}

// TestImportFolder: -o DIR writes lorebook.yaml + entries/<NN>-<id>.yaml that load
// clean; a second import refuses the non-empty folder without --force.
func TestImportFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "book") + "/"
	src := filepath.Join(formatFixtures, "st_edge_cases.json")
	if _, errs, code := runConvert(t, "import", src, "-o", out); code != 0 || !strings.Contains(errs, "lore: wrote 12 entries (from sillytavern) to "+out) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "entries", "06-whisper-at-depth-2.yaml")); err != nil {
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

// TestFolderImportKeepsOrder: a book imported to a folder reads back with
// its entries in the source's order, under the same ids, so a card exported
// from the folder lists character_book as the card did (Seraphina's came
// back 0, 2, 3, 1) and entries sharing a name keep theirs (AI Dungeon's two
// "Druadach Mountains" swapped). The loss report of that export names no
// rename.
func TestFolderImportKeepsOrder(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(formatFixtures, "*"))
	if testcorpus.Find(t) != "" {
		files = append(files, testcorpus.Files(t)...)
	}
	for _, f := range files {
		src, _, err := formats.Open(f)
		if err != nil || len(src.Entries) < 2 {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "book")
			if _, errs, code := runConvert(t, "import", f, "-o", out+"/"); code != 0 {
				t.Fatalf("import: exit %d: %s", code, errs)
			}
			back, _, err := schema.Load(out)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := entryIDs(back), entryIDs(src); !slices.Equal(got, want) {
				t.Fatalf("the folder reads back in another order:\n got %v\nwant %v", got, want)
			}
			for i, e := range back.Entries {
				if e.Name != src.Entries[i].Name {
					t.Errorf("entry %s: name %q, was %q", e.ID, e.Name, src.Entries[i].Name)
				}
			}
			direct, directReport, _ := formats.Export(src, formats.FormatCardV3, nil)
			fromFolder, report, _ := formats.Export(back, formats.FormatCardV3, nil)
			if got, want := cardBookOrder(t, fromFolder), cardBookOrder(t, direct); !slices.Equal(got, want) {
				t.Errorf("character_book from the folder %v, from the file %v", got, want)
			}
			if got, want := renames(report), renames(directReport); !slices.Equal(got, want) {
				t.Errorf("export from the folder renames %v, from the file %v", got, want)
			}
		})
	}
}

// renames are the ids a loss report says an export changes.
func renames(r *formats.LossReport) []string {
	var out []string
	for _, l := range r.Losses {
		if l.Field == "id" {
			out = append(out, l.Value+" → "+l.Target)
		}
	}
	return out
}

func entryIDs(lb *schema.Lorebook) []string {
	var ids []string
	for _, e := range lb.Entries {
		ids = append(ids, e.ID)
	}
	return ids
}

// cardBookOrder is the comment and id of each character_book entry of a card.
func cardBookOrder(t *testing.T, card []byte) []string {
	t.Helper()
	var c struct {
		Data struct {
			Book struct {
				Entries []struct {
					ID      any
					Comment string
				}
			} `json:"character_book"`
		}
	}
	if err := json.Unmarshal(card, &c); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range c.Data.Book.Entries {
		out = append(out, fmt.Sprint(e.ID, " ", e.Comment))
	}
	return out
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
