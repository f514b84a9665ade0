package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
	"github.com/spf13/pflag"
)

// The budget rules name the context they measured against and where it came
// from, and leave alone entries that can never be sent anyway.
func TestBudgetRulesSayTheirContext(t *testing.T) {
	big := strings.Repeat("The long winter saga goes on. ", 400) // about 2,800 tokens
	book := func() *schema.Lorebook {
		return &schema.Lorebook{Format: "lore", Entries: []*schema.Entry{
			entry("saga", func(e *schema.Entry) { e.Content = big }),
			entry("lost", func(e *schema.Entry) { e.Content = big; e.Keywords = nil }),
		}}
	}
	over := func(ds []string) []string {
		var out []string
		for _, d := range ds {
			if strings.Contains(d, "[entry-over-budget]") {
				out = append(out, d)
			}
		}
		return out
	}
	lines := func(b *schema.Lorebook, cfg *Config) []string {
		return strings.Split(strings.TrimSpace(format(run(b, nil, cfg))), "\n")
	}
	got := over(lines(book(), nil))
	if len(got) != 1 || !strings.Contains(got[0], `entry "saga"`) ||
		!strings.Contains(got[0], "lore's default context of 8192 tokens (the lorebook sets none") {
		t.Errorf("default context: want one finding on saga saying so, got %q", got)
	}
	got = over(lines(book(), &Config{File: &settings.File{ContextTokens: 16384}}))
	if len(got) != 0 {
		t.Errorf("a 16384-token context from .lore.yaml fits the card, got %q", got)
	}
	got = over(lines(book(), &Config{File: &settings.File{ContextTokens: 4096}}))
	if len(got) != 1 || !strings.Contains(got[0], "the context of 4096 tokens set in .lore.yaml") {
		t.Errorf(".lore.yaml context: %q", got)
	}
	b := book()
	b.Manifest.Settings = schema.DefaultSettings()
	b.Manifest.Settings.ContextTokens = 4096
	b.Manifest.Settings.Fields = map[string]schema.Pos{"contextTokens": {File: "book.yaml", Line: 3, Col: 18}}
	got = over(lines(b, (&Config{}).WithSettings(withFlags(t, b, "--context", "6000"))))
	if len(got) != 1 || !strings.Contains(got[0], "the context of 6000 tokens given with --context") {
		t.Errorf("--context wins over the manifest: %q", got)
	}
	got = over(lines(b, nil))
	if len(got) != 1 || !strings.Contains(got[0], "the context of 4096 tokens set in the manifest") {
		t.Errorf("manifest context: %q", got)
	}
}

// The byte bound skips counting cards that fit, never the verdict: a book
// whose cards are all counted (no lean book, because a keyword-triggered
// system-presets entry exists) gives the same findings.
func TestLeanSizingSameVerdicts(t *testing.T) {
	big := strings.Repeat("word ", 2000)
	mk := func(extra bool) *schema.Lorebook {
		es := []*schema.Entry{
			entry("small", func(e *schema.Entry) { e.Content = "short" }),
			entry("large", func(e *schema.Entry) { e.Content = big }),
			entry("constant", func(e *schema.Entry) { e.Content = big; e.AlwaysSend = true; e.Keywords = nil }),
		}
		if extra {
			es = append(es, entry("preset", func(e *schema.Entry) { e.Section = schema.SectionSystemPresets; e.Content = "x" }))
		}
		return &schema.Lorebook{Entries: es}
	}
	pick := func(b *schema.Lorebook) string {
		var out []string
		for _, d := range run(b, nil, nil) {
			if d.Rule == "entry-over-budget" || d.Rule == "required-over-cap" {
				out = append(out, d.Entry+" "+d.Message)
			}
		}
		return strings.Join(out, "\n")
	}
	lean, full := pick(mk(false)), pick(mk(true))
	if lean == "" || lean != full {
		t.Errorf("lean sizing differs from full sizing:\n%s\nvs\n%s", lean, full)
	}
}

// Rules do not reason from a value the loader rejected: after section:
// chat_history (the schema says did you mean chat-history), the entry holds
// the default section, and neither keywords-ignored nor depth-ignored may
// judge it by that.
func TestRejectedValuesAreNotReasonedFrom(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "book.yaml")
	os.WriteFile(p, []byte("name: E\nentries:\n  - id: a\n    section: chat_history\n    keywords: [lantern]\n    depth: 2\n    content: A lantern.\n"), 0o644)
	book, ds, err := schema.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, d := range runWith(book, nil, nil, ds) {
		rules = append(rules, d.Rule)
	}
	if strings.Join(rules, ",") != "schema" {
		t.Errorf("want the schema finding alone, got %v", rules)
	}
}

// The commonest CJK authoring mistake, as a Chinese V3 card has it: ten
// entries whose one key is a list joined by fullwidth commas. Each is found,
// JSON keeps one finding per entry, and text output folds them into one line.
func TestJoinedKeysOfACard(t *testing.T) {
	type bookEntry struct {
		Keys     []string `json:"keys"`
		Content  string   `json:"content"`
		Comment  string   `json:"comment"`
		Enabled  bool     `json:"enabled"`
		Position string   `json:"position"`
	}
	names := []string{"曹操，荀彧，曹仁", "刘备，关羽，张飞", "孙权，周瑜，鲁肃", "袁绍，颜良，文丑", "吕布，貂蝉",
		"董卓，李儒", "刘表，刘琮", "马超，马岱", "张角，张宝", "司马懿，司马昭"}
	var es []bookEntry
	for _, n := range names {
		es = append(es, bookEntry{Keys: []string{n}, Content: "人物：" + n, Comment: strings.Split(n, "，")[0], Enabled: true, Position: "after_char"})
	}
	card := map[string]any{"spec": "chara_card_v3", "spec_version": "3.0", "data": map[string]any{
		"name": "三国", "description": "三国人物。", "first_mes": "你好。",
		"character_book": map[string]any{"entries": es}}}
	data, _ := json.Marshal(card)
	p := filepath.Join(t.TempDir(), "card.json")
	os.WriteFile(p, data, 0o644)
	book, ds, err := formats.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	all := runWith(book, nil, nil, ds)
	n := 0
	for _, d := range all {
		if d.Rule == "joined-keywords" {
			n++
		}
	}
	if n != len(names) {
		t.Fatalf("want %d joined-keywords findings, got %d:\n%s", len(names), n, format(all))
	}
	folded := format(Fold(all))
	want := fmt.Sprintf(`%d entries have a keyword that is a list joined by "，", which fires only where the whole list is written; make each part one of the entry's keys:`, len(names))
	if strings.Count(folded, "[joined-keywords]") != 1 || !strings.Contains(folded, want) || !strings.Contains(folded, `(曹操)`) {
		t.Errorf("want one folded line %q naming the entries, got:\n%s", want, folded)
	}
}

// Advice for a book read from another tool's format is in that format's words,
// and many entries without a way in fold into one line.
func TestForeignAdviceAndFolding(t *testing.T) {
	var es []string
	for i := 0; i < 4; i++ {
		es = append(es, fmt.Sprintf(`{"text": "Lore %d.", "displayName": "Place %d", "keys": [], "enabled": true, "forceActivation": false}`, i, i))
	}
	p := filepath.Join(t.TempDir(), "book.lorebook")
	os.WriteFile(p, []byte(`{"lorebookVersion": 5, "entries": [`+strings.Join(es, ",")+`]}`), 0o644)
	book, ds, err := formats.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	all := runWith(book, nil, nil, ds)
	n := 0
	for _, d := range all {
		if d.Rule == "unreachable-entry" {
			n++
			if !strings.Contains(d.Message, "it has no keys and forceActivation is false; add keys or set forceActivation: true") {
				t.Errorf("advice not in NovelAI's words: %s", d.Message)
			}
		}
	}
	if n != 4 {
		t.Fatalf("want 4 unreachable-entry findings, got %d:\n%s", n, format(all))
	}
	folded := format(Fold(all))
	if !strings.Contains(folded, `4 entries have no keys and forceActivation is false, so they can never be sent; add keys or set forceActivation: true: "place-0", "place-1", "place-2", "place-3" [unreachable-entry]`) {
		t.Errorf("want one folded line, got:\n%s", folded)
	}
}

// withFlags is b's settings as a command resolves them with these settings
// flags on its command line.
func withFlags(t *testing.T, b *schema.Lorebook, args ...string) *settings.Resolved {
	t.Helper()
	fs := pflag.NewFlagSet("lint", pflag.ContinueOnError)
	fs.Int("context", 0, "")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	r, err := settings.New(fs, nil).Resolve(b, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fitsByBytes only ever answers for books the tokenizer would pass: over
// cards and always-sent texts of every size around the budget's limits (in
// bytes, CJK and Latin), whenever it says a book fits, the counted sizing
// finds no card over the share and no Required part over the cap.
func TestFitsByBytesNeverHidesAFinding(t *testing.T) {
	fitted, tried := 0, 0
	for _, word := range []string{"word ", "霧の谷", "Élan "} {
		for n := 1; n <= 6000; n = n*3/2 + 1 {
			text := strings.Repeat(word, n)
			for _, always := range []bool{false, true} {
				book := &schema.Lorebook{Format: "lore", Entries: []*schema.Entry{
					entry("card", func(e *schema.Entry) { e.Content = text; e.AlwaysSend = always }),
					entry("other"),
				}}
				cfg := withEngines(nil, "", book)
				res := cfg.settings(book)
				c := &Context{Book: book, Settings: res.Settings, shared: &shared{},
					Engine: engineFor(cfg, book, nil, res.Settings, res.From("contextTokens"))}
				tried++
				if !c.fitsByBytes() {
					continue
				}
				fitted++
				sz := c.sizing()
				if sz.RequiredTotal > sz.RequiredCap || len(c.cardsOver(sz.CardsShare)) > 0 {
					t.Errorf("%d × %q (alwaysSend %v): fits by bytes, but counted it does not", n, word, always)
				}
			}
		}
	}
	if fitted == 0 || fitted == tried {
		t.Fatalf("%d of %d books fitted by bytes: the sweep does not cross the limit", fitted, tried)
	}
}
