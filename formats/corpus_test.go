package formats

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/golden"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/internal/testcorpus"
	"github.com/lorekit/lore/schema"
)

// corpusDir is the shared corpus of real files (see testcorpus: a skip on a
// bare clone, a failure in CI).
func corpusDir(t testing.TB) string { return testcorpus.Dir(t) }

// corpusWant is what SOURCES.md says of each file: its format and the number
// of entries of its book (NovelAI: minus the empty {} placeholders), or the
// position of its syntax error.
var corpusWant = map[string]struct {
	format  string
	entries int
	errAt   string // "line:col" of a file that must not load
}{
	"sillytavern/Eldoria.json":                                       {FormatSillyTavern, 4, ""},
	"sillytavern/Eldoria_ST-resaved_wtq524176336-fork.json":          {FormatSillyTavern, 4, ""},
	"sillytavern/Nen_Encyclopedia_HxH.json":                          {FormatSillyTavern, 9, ""},
	"sillytavern/dsh_sample_roleplay_zh.json":                        {FormatSillyTavern, 8, ""},
	"sillytavern/dsh_sample_programming_zh.json":                     {FormatSillyTavern, 7, ""},
	"novelai/grahamwaters_lorebook_generated_e032f0c.lorebook":       {FormatNovelAI, 4, ""},
	"novelai/ssjmarx_test_lorebook_with_keys.lorebook":               {FormatNovelAI, 3, ""},
	"novelai/grahamwaters_Ripple_Mon_Oct_17_2022_TRUNCATED.lorebook": {"", 0, "56:28"},
	"aidungeon/thaalesalves_skyrim_wi_7-landmarks.json":              {FormatAIDungeon, 77, ""},
	"aidungeon/thaalesalves_skyrim_wi_13-nordic_gods.json":           {FormatAIDungeon, 9, ""},
	"cards/default_Seraphina.png":                                    {FormatCardV2, 4, ""},
	"cards/contest_Assistant_Sakana.png":                             {FormatCardV2, 14, ""},
	"cards/contest_Assistant_Amy.png":                                {FormatCardV3, 0, ""},
	"cards/yumina_default_human.png":                                 {FormatCardV3, 12, ""},
	"tavern_kit/ccv3_st_export_like.json":                            {FormatCardV3, 1, ""},
	"tavern_kit/full_v2_card.json":                                   {FormatCardV2, 1, ""},
	"tavern_kit/full_v3_card.json":                                   {FormatCardV3, 1, ""},
	"tavern_kit/invalid.json":                                        {"", 0, "1:3"},
	"tavern_kit/world_one.json":                                      {FormatSillyTavern, 1, ""},
}

func bookEntries(lb *schema.Lorebook) int {
	n := 0
	for _, e := range lb.Entries {
		if cardField(e) == "" {
			n++
		}
	}
	return n
}

// TestCorpus opens every corpus file: the format and entry count match
// SOURCES.md, broken files fail with their position, and every imported
// lorebook, written as YAML and as JSON, loads back through schema.Load
// clean and identical.
func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	seen := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "SOURCES.md" {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		want, ok := corpusWant[rel]
		if !ok {
			t.Errorf("%s: not in corpusWant; add what SOURCES.md says of it", rel)
			return nil
		}
		seen++
		t.Run(rel, func(t *testing.T) {
			lb, ds, err := Open(path)
			if want.errAt != "" {
				var pe *schema.ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("want a ParseError at %s, got %v", want.errAt, err)
				}
				if !strings.HasSuffix(pe.Pos.String(), ":"+want.errAt) {
					t.Errorf("error at %s, want %s: %v", pe.Pos, want.errAt, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if lb.Format != want.format {
				t.Errorf("format %q, want %q", lb.Format, want.format)
			}
			if n := bookEntries(lb); n != want.entries {
				t.Errorf("%d entries, want %d", n, want.entries)
			}
			for _, d := range ds {
				if d.Severity != diag.Info {
					t.Errorf("import diagnostic above info: %+v", d)
				}
			}
			for _, format := range []string{canon.YAML, canon.JSON} {
				assertReloads(t, lb, format)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(corpusWant) {
		t.Errorf("saw %d corpus files, corpusWant lists %d", seen, len(corpusWant))
	}
}

// assertReloads writes lb, loads it with schema.Load, and compares.
func assertReloads(t *testing.T, lb *schema.Lorebook, format string) *schema.Lorebook {
	t.Helper()
	b, err := canon.EncodeLorebook(lb, format)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "book."+format)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	back, ds, err := schema.Load(path)
	if err != nil {
		t.Fatalf("%s output does not load: %v\n%s", format, err, b)
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Errorf("%s output: %s: %s [%s]", format, d.Pos(), d.Message, d.Rule)
		}
	}
	if got, want := modelOf(back), modelOf(lb); !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("%s output loads back different:\n got %s\nwant %s", format, firstDiff(string(g), string(w)), firstDiff(string(w), string(g)))
	}
	return back
}

func firstDiff(a, b string) string { return golden.FirstDiff(a, b) }

// modelOf is what the writer must preserve, positions aside, as plain values.
func modelOf(lb *schema.Lorebook) any {
	type cond struct {
		Var, Op string
		Value   string
	}
	type entry struct {
		ID, Name, Content, Role, APIRole, Section string
		Position                                  int
		Enabled, AlwaysSend                       bool
		Keywords, Secondary, Tags, LintIgnore     []string
		Logic, CondLogic, Folder, LintReason      string
		Depth                                     *int
		MWW, Prevent, Exclude                     bool
		Conditions                                []cond
		Ext                                       string
	}
	norm := func(v any) string {
		if v == nil {
			return ""
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	var es []entry
	for _, e := range lb.Entries {
		var cs []cond
		for _, c := range e.Conditions {
			cs = append(cs, cond{c.VariableID, c.Operator, norm(c.Value)})
		}
		es = append(es, entry{e.ID, e.Name, e.Content, e.Role, e.APIRole, e.Section, e.Position, e.Enabled, e.AlwaysSend,
			keywordTexts(e.Keywords), keywordTexts(e.SecondaryKeywords), e.Tags, keywordTexts(e.Lint.Ignore), e.SecondaryKeywordLogic,
			e.ConditionLogic, e.FolderID, e.Lint.Reason, e.Depth, e.MatchWholeWords, e.PreventRecursion, e.ExcludeRecursion, cs, norm(e.Extensions)})
	}
	m := lb.Manifest
	s := m.Settings
	s.Fields = nil
	var folders, vars, transforms []string
	for _, f := range m.Folders {
		folders = append(folders, f.ID+"="+f.Name)
	}
	for _, v := range m.Variables {
		vars = append(vars, norm([]any{v.ID, v.Type, v.Default, v.Description}))
	}
	for _, t := range m.Transforms {
		transforms = append(transforms, norm([]any{t.Pattern, t.Replace, t.MinDepth, t.MaxDepth, t.Roles}))
	}
	persona := ""
	if p := m.Persona; p != nil {
		persona = norm([]string{p.Name, p.Appearance, p.Backstory})
	}
	return map[string]any{"name": m.Name, "description": m.Description, "character": m.Character, "format": m.Format,
		"presets": keywordTexts(m.Presets), "variables": vars, "transforms": transforms, "persona": persona,
		"settings": s, "ext": norm(m.Extensions), "folders": folders, "entries": es}
}

// TestSillyTavernRoundTrip: every SillyTavern file of the corpus, imported,
// written as lore YAML, loaded back and exported, has every field of every
// source entry unchanged (the export may add fields ST fills in anyway).
func TestSillyTavernRoundTrip(t *testing.T) {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "sillytavern", "*.json"))
	files = append(files, filepath.Join(dir, "tavern_kit", "world_one.json"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			assertSTRoundTrip(t, f)
		})
	}
}

func assertSTRoundTrip(t *testing.T, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lb, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	back := assertReloads(t, lb, canon.YAML)
	out := exportSillyTavern(back)
	var a, b struct {
		Entries map[string]map[string]any `json:"entries"`
	}
	if err := json.Unmarshal(src, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatalf("export is not JSON: %v\n%s", err, out)
	}
	if len(a.Entries) != len(b.Entries) {
		t.Errorf("%d entries exported, source has %d", len(b.Entries), len(a.Entries))
	}
	for uid, se := range a.Entries {
		ee, ok := b.Entries[uid]
		if !ok {
			t.Errorf("uid %s missing from the export", uid)
			continue
		}
		for k, v := range se {
			if got, ok := ee[k]; !ok || !reflect.DeepEqual(got, v) {
				t.Errorf("uid %s field %s: exported %#v, source %#v", uid, k, got, v)
			}
		}
	}
}

// TestCardRoundTrip: the books of the corpus cards, imported and exported as
// Card V3, keep every field of every entry (ST's card extensions included).
func TestCardRoundTrip(t *testing.T) {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "cards", "*.png"))
	more := []string{filepath.Join(dir, "tavern_kit", "ccv3_st_export_like.json"),
		filepath.Join(dir, "tavern_kit", "full_v2_card.json"), filepath.Join(dir, "tavern_kit", "full_v3_card.json")}
	for _, f := range append(files, more...) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			lb, _, err := Open(f)
			if err != nil {
				t.Fatal(err)
			}
			src, _, err := cardJSON(f)
			if err != nil {
				t.Fatal(err)
			}
			out := exportCard(assertReloads(t, lb, canon.YAML), FormatCardV3)
			type book struct {
				Data struct {
					Name string
					Book struct {
						Entries []map[string]any
					} `json:"character_book"`
				}
			}
			var a, b book
			if err := json.Unmarshal(src, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &b); err != nil {
				t.Fatal(err)
			}
			if a.Data.Name != b.Data.Name || len(a.Data.Book.Entries) != len(b.Data.Book.Entries) {
				t.Fatalf("name %q/%q, %d/%d entries", b.Data.Name, a.Data.Name, len(b.Data.Book.Entries), len(a.Data.Book.Entries))
			}
			// The card's own fields come back too, \r\n line ends included.
			var da, db struct{ Data map[string]any }
			json.Unmarshal(src, &da)
			json.Unmarshal(out, &db)
			for k, v := range da.Data {
				if k != "character_book" && !reflect.DeepEqual(db.Data[k], v) {
					t.Errorf("card field %s: exported %#v, source %#v", k, db.Data[k], v)
				}
			}
			for i, se := range a.Data.Book.Entries {
				for k, v := range se {
					if got := b.Data.Book.Entries[i][k]; !reflect.DeepEqual(got, v) {
						t.Errorf("entry %d %s: exported %#v, source %#v", i, k, got, v)
					}
				}
			}
		})
	}
}

// cardJSON is the card JSON of a card file (PNG or JSON), for comparisons.
func cardJSON(path string) ([]byte, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	if strings.HasSuffix(path, ".png") {
		return cardJSONFromPNG(data)
	}
	return data, "", nil
}
