package formats

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/internal/testcorpus"
	"github.com/lorekit/lore/schema"
)

func exportJSONOf(t *testing.T, file, target string) (map[string]any, *LossReport) {
	t.Helper()
	lb, _, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	data, report, err := Export(lb, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return out, report
}

// TestCardV1Mirrors: card exports carry the 12 top-level V1 fields older
// readers use, rebuilt from the data (not carried stale), with the card's
// own avatar and dates kept.
func TestCardV1Mirrors(t *testing.T) {
	for _, target := range []string{FormatCardV2, FormatCardV3} {
		card, _ := exportJSONOf(t, filepath.Join(fixtureDir, "card_v3_both_chunks.png"), target)
		data, _ := card["data"].(map[string]any)
		for _, k := range []string{"name", "description", "personality", "scenario", "first_mes", "mes_example",
			"creatorcomment", "avatar", "talkativeness", "fav", "tags", "create_date"} {
			if _, ok := card[k]; !ok {
				t.Errorf("%s: no top-level %s", target, k)
			}
		}
		for top, field := range map[string]string{"name": "name", "description": "description", "first_mes": "first_mes",
			"creatorcomment": "creator_notes", "tags": "tags"} {
			if !reflect.DeepEqual(card[top], data[field]) {
				t.Errorf("%s: top-level %s %#v, data.%s %#v", target, top, card[top], field, data[field])
			}
		}
		wantSpec := map[string]string{FormatCardV2: "chara_card_v2", FormatCardV3: "chara_card_v3"}[target]
		if card["spec"] != wantSpec {
			t.Errorf("spec %v, want %s", card["spec"], wantSpec)
		}
	}
}

// TestCardV2Export: a V2 card has no V3 fields, decorators or use_regex,
// and the loss report names each one the book used.
func TestCardV2Export(t *testing.T) {
	card, report := exportJSONOf(t, filepath.Join(fixtureDir, "card_v3_decorators.json"), FormatCardV2)
	data, _ := card["data"].(map[string]any)
	for _, k := range v3OnlyData {
		if _, ok := data[k]; ok {
			t.Errorf("V2 card has V3 field %s", k)
		}
	}
	book, _ := data["character_book"].(map[string]any)
	for _, e := range book["entries"].([]any) {
		m := e.(map[string]any)
		if strings.HasPrefix(m["content"].(string), "@@") {
			t.Errorf("decorators written into a V2 card: %q", m["content"])
		}
		if _, ok := m["use_regex"]; ok {
			t.Error("use_regex written into a V2 card")
		}
	}
	var named []string
	for _, l := range report.Losses {
		named = append(named, l.Entry+"."+l.Field)
	}
	for _, want := range []string{"warp-drive.extensions.card-v3.decorators", "shields.extensions.card-v3.use_regex"} {
		if !strings.Contains(strings.Join(named, " "), want) {
			t.Errorf("loss report names %v, not %s", named, want)
		}
	}
}

// TestOriginalDataRegenerated: a SillyTavern world that carries the card
// book it came from (originalData) gets it rebuilt from the entries on
// export, so an edit in lore shows in both.
func TestOriginalDataRegenerated(t *testing.T) {
	src := `{"entries": {"0": {"uid": 0, "key": ["lamp"], "content": "old text", "comment": "Lamp"}},
"originalData": {"name": "Coast", "entries": [{"keys": ["lamp"], "content": "old text", "extensions": {}}]}}`
	lb := mustConvert(t, "world.json", []byte(src))
	lb.Entries[0].Content = "new text"
	var out struct {
		Entries      map[string]map[string]any
		OriginalData struct{ Entries []map[string]any } `json:"originalData"`
	}
	if err := json.Unmarshal(exportSillyTavern(lb), &out); err != nil {
		t.Fatal(err)
	}
	if out.Entries["0"]["content"] != "new text" || len(out.OriginalData.Entries) != 1 || out.OriginalData.Entries[0]["content"] != "new text" {
		t.Errorf("entry %v, originalData %v", out.Entries["0"]["content"], out.OriginalData.Entries)
	}
}

// TestNovelAIExport: lore's sections, depths and order become NovelAI's
// budget priorities and insertion positions (docs/formats.md), and a
// NovelAI book comes back with every field it had.
func TestNovelAIExport(t *testing.T) {
	book := `{"name": "Coast", "entries": [
{"id": "rules", "section": "system-presets", "content": "Narrate.", "position": 0},
{"id": "tone", "section": "system-presets", "content": "Be terse.", "position": 1},
{"id": "lamp", "section": "chat-history", "content": "Lamp.", "keywords": ["lamp"], "position": 5},
{"id": "cape", "section": "chat-history", "content": "Cape.", "keywords": ["cape"], "position": 9, "tags": ["place"]},
{"id": "whisper", "section": "chat-history", "depth": 2, "content": "Whisper.", "keywords": ["w"]},
{"id": "near", "section": "chat-history", "depth": 0, "content": "Near.", "keywords": ["n"]},
{"id": "note", "section": "post-history", "content": "Status."}]}`
	lb := loadLore(t, book)
	data, _, err := Export(lb, FormatNovelAI, nil)
	if err != nil {
		t.Fatal(err)
	}
	var nai struct {
		Version    float64 `json:"lorebookVersion"`
		Categories []map[string]any
		Entries    []struct {
			DisplayName string
			Category    string
			Force       bool `json:"forceActivation"`
			CC          struct {
				Priority, Position, Budget, Reserved float64 `json:"-"`
				P                                    float64 `json:"budgetPriority"`
				I                                    float64 `json:"insertionPosition"`
				B                                    float64 `json:"tokenBudget"`
				R                                    float64 `json:"reservedTokens"`
			} `json:"contextConfig"`
		}
	}
	if err := json.Unmarshal(data, &nai); err != nil {
		t.Fatal(err)
	}
	got := map[string][4]float64{}
	for _, e := range nai.Entries {
		got[e.DisplayName] = [4]float64{e.CC.P, e.CC.I, e.CC.B, e.CC.R}
	}
	// available 7168: cards share 1792, Required cap 5017 (reserved).
	want := map[string][4]float64{
		"rules": {601, 0, 5017, 5017}, "tone": {602, 0, 5017, 5017}, // inserted tone first: rules ends on top
		"lamp": {400, -1, 1792, 0}, "cape": {399, -1, 1792, 0},
		"whisper": {-1, -4, 1792, 0}, "near": {-2, -2, 1792, 0}, // deepest first
		"note": {-3, -1, 5017, 5017},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("placement\n got %v\nwant %v", got, want)
	}
	if nai.Version != naiVersion || len(nai.Categories) != 1 || nai.Categories[0]["name"] != "place" || nai.Entries[3].Category != nai.Categories[0]["id"] {
		t.Errorf("version %v, categories %v, cape's category %q", nai.Version, nai.Categories, nai.Entries[3].Category)
	}
	back := mustConvert(t, "coast.lorebook", data)
	for i, e := range back.Entries {
		if a, b := loreView(lb.Entries[i]), loreView(e); i >= 2 && a != b {
			// system presets come back as cards (reported); the rest as they were, order as place in the file
			a = strings.Replace(a, " position="+itoa(lb.Entries[i].Position), " position="+itoa(i), 1)
			a = strings.Replace(a, " role=character", " role=lore", 1)
			if a != b {
				t.Errorf("entry %d:\n%s\n%s", i, a, b)
			}
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestNovelAIRoundTrip: the corpus's NovelAI books, imported and exported
// again, have every field of every entry unchanged.
func TestNovelAIRoundTrip(t *testing.T) {
	files := []string{filepath.Join(fixtureDir, "novelai_v6.lorebook")}
	if d := testcorpus.Find(t); d != "" {
		more, _ := filepath.Glob(filepath.Join(d, "novelai", "*.lorebook"))
		files = append(files, more...)
	}
	for _, f := range files {
		lb, _, err := Open(f)
		if err != nil {
			continue // the truncated corpus file
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, _ := readJSONFile(t, f)
			out, _ := exportJSONOf(t, f, FormatNovelAI)
			var srcEntries []any
			for _, e := range src["entries"].([]any) {
				if m, ok := e.(map[string]any); ok && len(m) > 0 {
					srcEntries = append(srcEntries, m) // {} placeholders are not imported
				}
			}
			outEntries := out["entries"].([]any)
			if len(outEntries) != len(srcEntries) || len(lb.Entries) != len(srcEntries) {
				t.Fatalf("%d entries out, %d in", len(outEntries), len(srcEntries))
			}
			for i, se := range srcEntries {
				for k, v := range se.(map[string]any) {
					if got := outEntries[i].(map[string]any)[k]; !reflect.DeepEqual(got, v) {
						t.Errorf("entry %d %s: %s, source %s", i, k, short(got), short(v))
					}
				}
			}
			for _, k := range []string{"lorebookVersion", "settings", "categories"} {
				if !reflect.DeepEqual(out[k], src[k]) {
					t.Errorf("%s: %s, source %s", k, short(out[k]), short(src[k]))
				}
			}
		})
	}
}

// loadLore loads a lore lorebook written as JSON, failing on any error.
func loadLore(t *testing.T, text string) *schema.Lorebook {
	t.Helper()
	return loadText(t, filepath.Join(t.TempDir(), "book.json"), []byte(text))
}

// loadText writes a lore file at path and loads it, failing on any error.
func loadText(t *testing.T, path string, text []byte) *schema.Lorebook {
	t.Helper()
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	lb, ds, err := schema.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Fatalf("%s: %s", d.Pos(), d.Message)
		}
	}
	return lb
}

func readJSONFile(t *testing.T, path string) (map[string]any, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out, data
}

// TestExportLinear: exporting twice the entries costs about twice the
// allocations, to every target (the loss report included): nothing is
// quadratic in entries. Allocation counts do not depend on the machine.
func TestExportLinear(t *testing.T) {
	small, _, _ := Convert("small.json", bigST(400))
	large, _, _ := Convert("large.json", bigST(800))
	for _, target := range Targets {
		a := testing.AllocsPerRun(1, func() { Export(small, target, nil) })
		b := testing.AllocsPerRun(1, func() { Export(large, target, nil) })
		if b > 2.2*a {
			t.Errorf("%s: %.0f allocations for 400 entries, %.0f for 800", target, a, b)
		}
	}
	a := testing.AllocsPerRun(1, func() { ImportLosses(small) })
	b := testing.AllocsPerRun(1, func() { ImportLosses(large) })
	if b > 2.2*a {
		t.Errorf("import losses: %.0f allocations for 400 entries, %.0f for 800", a, b)
	}
}

// BenchmarkExport5000 exports a 5000-entry SillyTavern book to every
// target, the loss report included.
func BenchmarkExport5000(b *testing.B) {
	lb, _, err := Convert("big.json", bigST(5000))
	if err != nil {
		b.Fatal(err)
	}
	for _, target := range Targets {
		b.Run(target, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Export(lb, target, nil)
			}
		})
	}
}
