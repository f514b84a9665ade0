package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
)

func TestConfigAppliesLevelsIgnoresAndDefaults(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, settings.FileName)
	os.WriteFile(cfgPath, []byte("rules:\n  empty-content: error\n  keyword-overlap: off\n  keyword-in-words: off\nignore: [\"drafts/**\"]\ncontextTokens: 16384\ntokenizer: chars4\n"), 0o644)
	file, ds, err := settings.LoadFile(cfgPath, KnownRule)
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	cfg := NewConfig(file)
	book := &schema.Lorebook{Entries: []*schema.Entry{
		entry("qzx", func(e *schema.Entry) { e.Content = ""; e.Pos.File = filepath.Join(dir, "book.yaml") }),
		entry("b", func(e *schema.Entry) { e.Content = ""; e.Pos.File = filepath.Join(dir, "drafts", "x", "b.yaml") }),
		entry("bar", func(e *schema.Entry) { e.Keywords = []schema.Keyword{{Text: "bar"}}; e.Content = "barrels" }),
	}}
	got := run(book, nil, cfg)
	if len(got) != 1 || got[0].Rule != "empty-content" || got[0].Severity != diag.Error || !strings.HasSuffix(got[0].File, "book.yaml") {
		t.Errorf("want one empty-content error in book.yaml, got:\n%s", format(got))
	}
	s := cfg.settings(book).Settings
	if s.ContextTokens != 16384 || s.Tokenizer != "chars4" || s.ResponseReserve != 1024 {
		t.Errorf("config defaults not applied: %+v", s)
	}
	book.Manifest.Settings = schema.DefaultSettings()
	book.Manifest.Settings.Fields = map[string]schema.Pos{"contextTokens": {}}
	if s := cfg.settings(book).Settings; s.ContextTokens != 8192 || s.Tokenizer != "chars4" {
		t.Errorf("the manifest's own contextTokens must win: %+v", s)
	}
}

func TestGlobRegexp(t *testing.T) {
	for _, tc := range []struct {
		glob, path string
		want       bool
	}{
		{"drafts/**", "drafts/a/b.yaml", true},
		{"drafts", "drafts/a.yaml", true},
		{"drafts/*.yaml", "drafts/a.yaml", true},
		{"drafts/*.yaml", "drafts/x/a.yaml", false},
		{"**/old-*.yaml", "entries/old-tavern.yaml", true},
		{"**/old-*.yaml", "old-tavern.yaml", true},
		{"entries/?.yaml", "entries/ab.yaml", false},
	} {
		if got := globRegexp(tc.glob).MatchString(tc.path); got != tc.want {
			t.Errorf("%q on %q = %v", tc.glob, tc.path, got)
		}
	}
}

// entry builds a keyword-activated chat-history entry for engine tests.
func entry(id string, opts ...func(*schema.Entry)) *schema.Entry {
	e := &schema.Entry{ID: id, Section: schema.SectionChatHistory, Enabled: true, Content: "text of " + id,
		Keywords: []schema.Keyword{{Text: id}}, SecondaryKeywordLogic: schema.AndAny, ConditionLogic: "all",
		Pos: schema.Pos{File: "book.yaml", Line: 1, Col: 3}}
	for _, o := range opts {
		o(e)
	}
	return e
}
