package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
