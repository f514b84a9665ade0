package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// flags is a command's settings flags, parsed from args.
func flags(t *testing.T, args ...string) *pflag.FlagSet {
	t.Helper()
	fs := pflag.NewFlagSet("render", pflag.ContinueOnError)
	fs.Int("context", 0, "")
	fs.Int("reserve", 0, "")
	fs.String("tokenizer", "", "")
	fs.String("engine", "", "")
	fs.String("config", "", "")
	fs.String("st-settings", "", "")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fs
}

func manifest(fields map[string]diag.Pos, set func(*schema.Settings)) *schema.Lorebook {
	s := schema.DefaultSettings()
	s.Fields = fields
	if set != nil {
		set(&s)
	}
	return &schema.Lorebook{Manifest: schema.Manifest{Settings: s}}
}

var at = diag.Pos{File: "book.yaml", Line: 3, Col: 18}

// Each layer wins over the ones below it, and says so.
func TestPrecedence(t *testing.T) {
	file := &File{Path: "/p/.lore.yaml", ContextTokens: 16384, Tokenizer: "chars4",
		Fields: map[string]diag.Pos{"contextTokens": {File: "/p/.lore.yaml", Line: 1, Col: 16}, "tokenizer": {File: "/p/.lore.yaml", Line: 2, Col: 12}}}
	for _, tc := range []struct {
		name      string
		args, env []string
		book      *schema.Lorebook
		file      *File
		context   int
		from      string
	}{
		{"default", nil, nil, manifest(nil, nil), nil, 8192, "lore's default"},
		{".lore.yaml", nil, nil, manifest(nil, nil), file, 16384, "contextTokens in /p/.lore.yaml"},
		{"manifest over file", nil, nil, manifest(map[string]diag.Pos{"contextTokens": at}, func(s *schema.Settings) { s.ContextTokens = 4096 }), file,
			4096, "settings.contextTokens at book.yaml:3:18"},
		{"env over manifest", nil, []string{"LORE_CONTEXT", "3000"}, manifest(map[string]diag.Pos{"contextTokens": at}, func(s *schema.Settings) { s.ContextTokens = 4096 }), file,
			3000, "LORE_CONTEXT"},
		{"flag over env", []string{"--context", "2000"}, []string{"LORE_CONTEXT", "3000"}, manifest(nil, nil), file, 2000, "--context"},
		{"empty variable is unset", nil, []string{"LORE_CONTEXT", ""}, manifest(nil, nil), nil, 8192, "lore's default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != nil {
				t.Setenv(tc.env[0], tc.env[1])
			}
			r, err := New(flags(t, tc.args...), nil).Resolve(tc.book, tc.file, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Settings.ContextTokens != tc.context || r.From("contextTokens").String() != tc.from {
				t.Errorf("context %d from %q, want %d from %q", r.Settings.ContextTokens, r.From("contextTokens"), tc.context, tc.from)
			}
		})
	}
}

func TestFileFillsOnlyWhatTheManifestLeaves(t *testing.T) {
	file := &File{Path: "/p/.lore.yaml", Tokenizer: "chars4", ContextTokens: 16384, ResponseReserve: 0,
		Fields: map[string]diag.Pos{"tokenizer": {}, "contextTokens": {}, "responseReserve": {}}}
	r := Of(manifest(map[string]diag.Pos{"tokenizer": at}, func(s *schema.Settings) { s.Tokenizer = "cl100k_base" }), file)
	if s := r.Settings; s.Tokenizer != "cl100k_base" || s.ContextTokens != 16384 || s.ResponseReserve != 0 {
		t.Errorf("settings %+v", s)
	}
	if r.From("tokenizer").Kind != Manifest || r.From("responseReserve").Kind != FromFile {
		t.Errorf("sources %v %v", r.From("tokenizer"), r.From("responseReserve"))
	}
	// A lorebook without settings (hand-built, foreign) gets lore's defaults.
	r = Of(&schema.Lorebook{}, nil)
	if r.Settings.ContextTokens != 8192 || r.Settings.Tokenizer == "" {
		t.Errorf("no settings: %+v", r.Settings)
	}
}

// A variable stands for a flag only in the commands that have the flag.
func TestVariablesFollowTheirFlags(t *testing.T) {
	t.Setenv("LORE_RESERVE", "9000")
	t.Setenv("LORE_ENGINE", "yumina")
	fs := pflag.NewFlagSet("lint", pflag.ContinueOnError)
	fs.Int("context", 0, "")
	fs.String("engine", "", "")
	res := New(fs, nil)
	r, err := res.Resolve(manifest(nil, nil), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Settings.ResponseReserve != 1024 {
		t.Errorf("LORE_RESERVE applied to a command without --reserve: %d", r.Settings.ResponseReserve)
	}
	if r.Engine != "yumina" || r.EngineFrom.String() != "LORE_ENGINE" {
		t.Errorf("engine %q from %v", r.Engine, r.EngineFrom)
	}
	if e, _ := New(nil, nil).Engine(); e != "" {
		t.Errorf("a resolver without flags reads the environment: %q", e)
	}
}

func TestBadValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  [2]string
		want string
	}{
		{[]string{"--context", "0"}, [2]string{}, "--context must be a positive number of tokens, not 0"},
		{[]string{"--reserve", "-1"}, [2]string{}, "--reserve must not be negative, not -1"},
		{nil, [2]string{"LORE_CONTEXT", "lots"}, `LORE_CONTEXT must be a whole number of tokens, not "lots"`},
		{nil, [2]string{"LORE_RESERVE", "-5"}, "LORE_RESERVE must not be negative, not -5"},
		{[]string{"--tokenizer", "gpt2"}, [2]string{}, `unknown tokenizer "gpt2"`},
		{nil, [2]string{"LORE_TOKENIZER", "gpt2"}, `LORE_TOKENIZER: unknown tokenizer "gpt2"`},
	} {
		if tc.env[0] != "" {
			t.Setenv(tc.env[0], tc.env[1])
		}
		res := New(flags(t, tc.args...), nil)
		if err := res.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %v: %v, want %q", tc.args, tc.env, err, tc.want)
		}
		if _, err := res.Resolve(manifest(nil, nil), nil, nil); err == nil {
			t.Errorf("%v %v: Resolve took the bad value", tc.args, tc.env)
		}
		if tc.env[0] != "" {
			t.Setenv(tc.env[0], "")
		}
	}
}

func TestCheckRoomSaysWhere(t *testing.T) {
	book := manifest(map[string]diag.Pos{"contextTokens": at}, func(s *schema.Settings) { s.ContextTokens = 2048 })
	r, err := New(flags(t, "--reserve", "4000"), nil).Resolve(book, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "the response reserve (4000 tokens, --reserve) is not below the context window (2048 tokens, settings.contextTokens at book.yaml:3:18): nothing is left for the prompt; raise the context or lower the reserve"
	if err := r.CheckRoom(); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if r, _ := New(flags(t), nil).Resolve(book, nil, nil); r.CheckRoom() != nil {
		t.Error("a reserve below the context is refused")
	}
}

// --config (or LORE_CONFIG) names the file for every lorebook; otherwise it
// is found upward; each is loaded once.
func TestFileFor(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", FileName), []byte("contextTokens: 100\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "other.yaml"), []byte("contextTokens: 200\n"), 0o644)
	loads := 0
	load := func(p string) (*File, []diag.Diagnostic, error) { loads++; return LoadFile(p, nil) }
	res := New(flags(t), load)
	for range 2 {
		f, p, ds, err := res.FileFor(filepath.Join(dir, "a", "b", "book.yaml"))
		if err != nil || len(ds) > 0 || p != filepath.Join(dir, "a", FileName) || f.ContextTokens != 100 {
			t.Fatalf("found %q %+v %v %v", p, f, ds, err)
		}
	}
	if loads != 1 {
		t.Errorf("loaded %d times", loads)
	}
	if f, p, _, _ := res.FileFor(dir); f != nil || p != "" {
		t.Errorf("above the file: %q", p)
	}
	t.Setenv("LORE_CONFIG", filepath.Join(dir, "other.yaml"))
	f, _, _, _ := New(flags(t), nil).FileFor(filepath.Join(dir, "a", "b"))
	if f == nil || f.ContextTokens != 200 {
		t.Errorf("LORE_CONFIG: %+v", f)
	}
	f, _, _, _ = New(flags(t, "--config", filepath.Join(dir, "a", FileName)), nil).FileFor(dir)
	if f == nil || f.ContextTokens != 100 {
		t.Errorf("--config over LORE_CONFIG: %+v", f)
	}
}

// An engine settings file is laid over the manifest's object key by key,
// and neither is changed.
func TestEngineSettingsFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "st.yaml")
	os.WriteFile(p, []byte("scanDepth: 4\nrecursive: false\n"), 0o644)
	res := New(flags(t, "--st-settings", p), nil)
	es, ds, err := res.EngineSettings()
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	if es.Pos["recursive"].Line != 2 {
		t.Errorf("positions %v", es.Pos)
	}
	book := manifest(nil, func(s *schema.Settings) {
		s.Engines = map[string]map[string]any{"sillytavern": {"scanDepth": 2.0, "budget": 30.0}, "yumina": {"lorebookScanDepth": 1.0}}
	})
	r, err := res.Resolve(book, nil, es)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Settings.Engines["sillytavern"]
	if st["scanDepth"] != 4.0 || st["budget"] != 30.0 || st["recursive"] != false || r.Settings.Engines["yumina"]["lorebookScanDepth"] != 1.0 {
		t.Errorf("laid over: %v", r.Settings.Engines)
	}
	if book.Manifest.Settings.Engines["sillytavern"]["scanDepth"] != 2.0 {
		t.Error("the manifest's settings were changed")
	}
	os.WriteFile(p, []byte("scanDepth: deep\n"), 0o644)
	_, ds, _ = New(flags(t, "--st-settings", p), nil).EngineSettings()
	if len(ds) != 1 || ds[0].Pos() != (diag.Pos{File: p, Line: 1, Col: 12}) || !strings.Contains(ds[0].Message, "settings.sillytavern.scanDepth must be a number") {
		t.Errorf("diagnostics %v", ds)
	}
}

func TestOver(t *testing.T) {
	base := schema.DefaultSettings()
	base.Engines = map[string]map[string]any{"sillytavern": {"depth": 1.0}}
	layer := schema.Settings{ContextTokens: 4096, Shares: schema.Shares{Cards: 0.5},
		Fields:  map[string]diag.Pos{"contextTokens": {}, "shares.cards": {}},
		Engines: map[string]map[string]any{"sillytavern": {"scanDepth": 4.0}}}
	s := Over(base, []schema.Settings{layer})
	if s.ContextTokens != 4096 || s.Shares.Cards != 0.5 || s.Shares.History != 0.5 || s.Engines["sillytavern"]["depth"] != 1.0 || s.Engines["sillytavern"]["scanDepth"] != 4.0 {
		t.Errorf("%+v", s)
	}
	if base.Engines["sillytavern"]["scanDepth"] != nil {
		t.Error("base changed")
	}
}

// The README's table of variables lists every one, with its flag.
func TestREADMEListsEveryVariable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range Variables() {
		if row := "| `" + v[0] + "` | `" + v[1] + "` |"; !strings.Contains(string(data), row) {
			t.Errorf("README.md has no row %q", row)
		}
	}
}
