package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

func TestParseConfigErrorsHaveLines(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string
	}{
		{"unknown key", "rules:\n  empty-content: off\ncontext: 4096\n",
			[]string{`.lore.yaml:3:1: error: unknown key "context" in .lore.yaml (valid: rules, ignore, tokenizer, contextTokens, responseReserve) [config]`}},
		{"unknown rule", "rules:\n  empty-content: off\n  emtpy-content: info\n",
			[]string{"emtpy-content"}},
		{"bad level", "rules:\n  recursion-loop: fatal\n",
			[]string{`.lore.yaml:2:19: error: rule "recursion-loop": level must be off, info, warning or error, not "fatal" [config]`}},
		{"bad tokenizer", "tokenizer: gpt2\n", []string{".lore.yaml:1:12: error: tokenizer must be one of"}},
		{"bad context", "contextTokens: -5\n", []string{".lore.yaml:1:16: error: contextTokens must be a positive whole number"}},
		{"ignore not a list", "ignore: drafts\n", []string{".lore.yaml:1:9: error: ignore must be a list"}},
		{"not a mapping", "- rules\n", []string{".lore.yaml:1:1: error: .lore.yaml must be a mapping"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ds, err := parseConfig(".lore.yaml", []byte(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			got := format(ds)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("want %q in:\n%s", w, got)
				}
			}
			if len(ds) != len(tc.want) {
				t.Errorf("want %d diagnostics, got:\n%s", len(tc.want), got)
			}
		})
	}
}

func TestParseConfigNotYAML(t *testing.T) {
	if _, _, err := parseConfig("c.yaml", []byte("rules: [\n")); err == nil {
		t.Error("want an error for YAML that does not parse")
	}
}

func TestConfigAppliesLevelsIgnoresAndDefaults(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, ConfigName)
	os.WriteFile(cfgPath, []byte("rules:\n  empty-content: error\n  keyword-overlap: off\n  keyword-in-words: off\nignore: [\"drafts/**\"]\ncontextTokens: 16384\ntokenizer: chars4\n"), 0o644)
	cfg, ds, err := LoadConfig(cfgPath)
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	book := &schema.Lorebook{Entries: []*schema.Entry{
		entry("qzx", func(e *schema.Entry) { e.Content = ""; e.Pos.File = filepath.Join(dir, "book.yaml") }),
		entry("b", func(e *schema.Entry) { e.Content = ""; e.Pos.File = filepath.Join(dir, "drafts", "x", "b.yaml") }),
		entry("bar", func(e *schema.Entry) { e.Keywords = []schema.Keyword{{Text: "bar"}}; e.Content = "barrels" }),
	}}
	got := run(book, nil, cfg)
	if len(got) != 1 || got[0].Rule != "empty-content" || got[0].Severity != diag.Error || !strings.HasSuffix(got[0].File, "book.yaml") {
		t.Errorf("want one empty-content error in book.yaml, got:\n%s", format(got))
	}
	s := cfg.Settings(book)
	if s.ContextTokens != 16384 || s.Tokenizer != "chars4" || s.ResponseReserve != 1024 {
		t.Errorf("config defaults not applied: %+v", s)
	}
	book.Manifest.Settings = schema.DefaultSettings()
	book.Manifest.Settings.Fields = map[string]schema.Pos{"contextTokens": {}}
	if s := cfg.Settings(book); s.ContextTokens != 8192 || s.Tokenizer != "chars4" {
		t.Errorf("the manifest's own contextTokens must win: %+v", s)
	}
}

func TestFindConfigWalksUp(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "a", "b")
	os.MkdirAll(deep, 0o755)
	os.WriteFile(filepath.Join(deep, "book.yaml"), []byte("x"), 0o644)
	if got := FindConfig(filepath.Join(deep, "book.yaml")); got != "" && strings.HasPrefix(got, dir) {
		t.Errorf("no config yet, got %q", got)
	}
	os.WriteFile(filepath.Join(dir, "a", ConfigName), nil, 0o644)
	if got := FindConfig(filepath.Join(deep, "book.yaml")); got != filepath.Join(dir, "a", ConfigName) {
		t.Errorf("FindConfig = %q", got)
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
