package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/internal/testcorpus"
)

// TestExportRoundTrip: ST file → lore folder → ST file keeps every source
// field of every entry.
func TestExportRoundTrip(t *testing.T) {
	src := filepath.Join(formatFixtures, "st_edge_cases.json")
	dir := filepath.Join(t.TempDir(), "book")
	if _, errs, code := runConvert(t, "import", src, "-o", dir); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	out := filepath.Join(t.TempDir(), "world.json")
	if _, errs, code := runConvert(t, "export", dir, "--to", "sillytavern", "-o", out); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	var a, b struct{ Entries map[string]map[string]any }
	for p, v := range map[string]any{src: &a, out: &b} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatal(err)
		}
	}
	for uid, se := range a.Entries {
		for k, v := range se {
			if got := b.Entries[uid][k]; !reflect.DeepEqual(got, v) {
				t.Errorf("uid %s %s: %#v, want %#v", uid, k, got, v)
			}
		}
	}
}

func TestExportCardV3(t *testing.T) {
	stdout, errs, code := runConvert(t, "export", filepath.Join(formatFixtures, "card_v3_decorators.json"), "--to", "card-v3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var card struct {
		Spec string
		Data struct {
			Name     string
			FirstMes string `json:"first_mes"`
			Book     struct {
				Entries []map[string]any
			} `json:"character_book"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &card); err != nil {
		t.Fatal(err)
	}
	if card.Spec != "chara_card_v3" || card.Data.Name != "Nova" || len(card.Data.Book.Entries) != 2 {
		t.Errorf("card: %+v", card)
	}
	if c, _ := card.Data.Book.Entries[0]["content"].(string); !strings.HasPrefix(c, "@@depth 2\n@@role assistant\n") {
		t.Errorf("decorators not restored: %q", c)
	}
}

func TestExportErrors(t *testing.T) {
	src := filepath.Join(formatFixtures, "st_empty.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export", src}, "--to is required"},
		{[]string{"export", src, "--to", "kobold"}, "--to must be sillytavern, card-v2, card-v3, charx, novelai"},
		{[]string{"export", src, "--to", "novelai", "--asset", "x.png"}, "--asset goes with --to charx"},
		{[]string{"export", src, "--to", "novelai", "--format", "yaml"}, "the loss report is text or json"},
		{[]string{"export", src, "--to", "sillytavern", "-o", src}, "is the input"},
		{[]string{"export", filepath.Join(formatFixtures, "card_truncated.png"), "--to", "sillytavern"}, "truncated"},
	} {
		if _, errs, code := runConvert(t, tc.args...); code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %s", tc.args, code, errs)
		}
	}
}

// TestExportNotes: what a target cannot hold is said on stderr, entry by
// entry, not dropped silently; the exit code stays 0.
func TestExportNotes(t *testing.T) {
	_, errs, code := runConvert(t, "export", "../fixtures/eldoria/book", "--to", "sillytavern")
	if code != 0 || !strings.Contains(errs, "dropped entry: the chat's opening message is no world info") ||
		!strings.Contains(errs, "dropped conditions: SillyTavern has no variables") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
}

// TestExportTargets: every target writes a file that imports again, with
// the loss report on stderr and exit 0.
func TestExportTargets(t *testing.T) {
	dir := t.TempDir()
	for _, target := range formats.Targets {
		out := filepath.Join(dir, "world."+target)
		_, errs, code := runConvert(t, "export", filepath.Join(formatFixtures, "st_edge_cases.json"), "--to", target, "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", target, code, errs)
		}
		lb, _, err := formats.Open(out)
		if err != nil || len(lb.Entries) != 12 {
			t.Fatalf("%s: reads back as %v entries, %v", target, lb, err)
		}
		if !strings.Contains(errs, "lore: sillytavern → "+target+": ") && target != formats.FormatSillyTavern {
			t.Errorf("%s: no loss report on stderr:\n%s", target, errs)
		}
	}
}

// TestExportStrict: --strict refuses a lossy conversion (exit 1, nothing
// written, the report says why) and lets a lossless one through.
func TestExportStrict(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(formatFixtures, "st_edge_cases.json")
	out := filepath.Join(dir, "x.lorebook")
	_, errs, code := runConvert(t, "export", src, "--to", "novelai", "--strict", "-o", out)
	if code != 1 || !strings.Contains(errs, "nothing written") || !strings.Contains(errs, "changed depth: NovelAI counts lines") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("--strict wrote the file")
	}
	out = filepath.Join(dir, "same.json")
	if _, errs, code := runConvert(t, "export", src, "--to", "sillytavern", "--strict", "-o", out); code != 0 || errs != "lore: wrote 12 entries (as sillytavern) to "+out+"\n" {
		t.Errorf("lossless export: exit %d, stderr %q (only what was written)", code, errs)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
	// Imported for lore's own engine, SillyTavern's probability is a loss;
	// for the sillytavern engine (the default for an ST book) it is not.
	if _, errs, code := runConvert(t, "import", src, "--engine", "lore", "--strict", "-o", filepath.Join(dir, "book.yaml")); code != 1 ||
		!strings.Contains(errs, "ignored probability") {
		t.Errorf("import --engine lore --strict: exit %d, %s", code, errs)
	}
	if _, errs, code := runConvert(t, "import", src, "--strict", "-o", filepath.Join(dir, "st.yaml")); code != 0 ||
		strings.Contains(errs, "ignored probability") || !strings.Contains(errs, "the sillytavern engine (settings.engine) acts on 10 values") {
		t.Errorf("import --strict for the sillytavern engine: exit %d, %s", code, errs)
	}
}

// TestExportDryRun: --dry-run prints only the report, on stdout, and writes
// nothing; --format json gives it as data.
func TestExportDryRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "card.json")
	src := "../fixtures/eldoria/book"
	stdout, errs, code := runConvert(t, "export", src, "--to", "card-v3", "--dry-run", "-o", out)
	if code != 0 || errs != "" || !strings.HasPrefix(stdout, "lore: lore → card-v3: ") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, stdout)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("--dry-run wrote the file")
	}
	stdout, _, code = runConvert(t, "export", src, "--to", "sillytavern", "--dry-run", "--format", "json")
	var r struct {
		From, To string
		Lossless bool
		Losses   []struct{ Entry, Field, Kind, Reason, File string }
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, stdout)
	}
	if r.From != "lore" || r.To != "sillytavern" || r.Lossless || len(r.Losses) == 0 || r.Losses[0].File == "" {
		t.Errorf("report %+v", r)
	}
}

// TestExportCharX: a .charx exported as a .charx keeps its files; --asset
// adds one; the report of a card-v3 export names the files it cannot hold.
func TestExportCharX(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(formatFixtures, "card_v3.charx")
	icon := writeFile(t, "portrait.png", "\x89PNG fake")
	out := filepath.Join(dir, "out.charx")
	_, errs, code := runConvert(t, "export", src, "--to", "charx", "--asset", "emotion="+icon, "-o", out)
	if code != 0 || strings.Contains(errs, "asset") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	data, _ := os.ReadFile(out)
	assets, err := formats.CharXAssets(data)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, a := range assets {
		paths = append(paths, a.Path)
	}
	want := []string{"assets/emotion/images/portrait.png", "assets/icon/images/main.png", "module.risum"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("assets %v, want %v", paths, want)
	}
	_, errs, _ = runConvert(t, "export", src, "--to", "card-v3", "-o", filepath.Join(dir, "card.json"))
	if !strings.Contains(errs, "dropped asset: RisuAI module") || !strings.Contains(errs, "assets/icon/images/main.png") {
		t.Errorf("stderr:\n%s", errs)
	}
}

// TestFormatsDocExample: the loss report shown in docs/formats.md is what
// lore prints for the corpus's Eldoria.json.
func TestFormatsDocExample(t *testing.T) {
	src := filepath.Join(testcorpus.Dir(t), "sillytavern", "Eldoria.json")
	doc, err := os.ReadFile("../docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "$ lore export Eldoria.json --to novelai --dry-run\n"
	_, block, ok := strings.Cut(string(doc), cmd)
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/formats.md has no such example")
	}
	stdout, _, code := runConvert(t, "export", src, "--to", "novelai", "--dry-run")
	stdout = strings.ReplaceAll(stdout, src, "Eldoria.json")
	if code != 0 || stdout != block {
		t.Errorf("exit %d; docs/formats.md shows\n%s\nlore prints\n%s", code, block, stdout)
	}
}
