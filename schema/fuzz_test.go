package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/lorekit/lore/diag"
)

// fuzzFile writes the fuzzer's bytes to a file the loaders can stat and read.
func fuzzFile(t *testing.T, name string, data []byte) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkResult holds for every loader: an error is a *ParseError (or several)
// naming the file, and every diagnostic has a file and a sane position.
func checkResult(t *testing.T, p string, ds []diag.Diagnostic, err error) {
	for _, d := range ErrorDiagnostics(p, err) {
		if d.File == "" || d.Line < 0 || d.Column < 0 || d.Rule != "load" {
			t.Errorf("bad load error: %+v", d)
		}
	}
	for _, d := range ds {
		if d.File == "" || d.Line < 1 || d.Column < 1 || d.Message == "" {
			t.Errorf("bad diagnostic: %+v", d)
		}
	}
}

func addSeeds(f *testing.F, globs ...string) {
	for _, g := range globs {
		files, _ := filepath.Glob(g)
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && len(b) < 1<<16 {
				f.Add(b)
			}
		}
	}
}

func FuzzLoadYAML(f *testing.F) {
	addSeeds(f, "testdata/bad/*.yaml", "../fixtures/*/*.yaml", "../fixtures/*/*/*.yaml", "../fixtures/*/*/*/*.yaml")
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("- <<: *x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := fuzzFile(t, "book.yaml", data)
		_, ds, err := Load(p)
		checkResult(t, p, ds, err)
	})
}

func FuzzLoadJSON(f *testing.F) {
	addSeeds(f, "testdata/bad/*.json")
	f.Add([]byte(`{"entries": [{"id": "a", "section": "examples", "content": "caf\u00e9"}]}`))
	f.Add([]byte(`[{"id": "a"}, 1, "x", null, true, -1.5e3]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := fuzzFile(t, "book.json", data)
		_, ds, err := Load(p)
		checkResult(t, p, ds, err)
		// The hand-built JSON tree accepts exactly what encoding/json does,
		// short of the limits.
		root, perr := ParseBytes("x.json", data)
		valid := json.Valid(data) && utf8.Valid(data)
		if perr == nil && !valid {
			t.Errorf("accepted invalid JSON %q", data)
		}
		if perr != nil && valid {
			if pe, ok := perr.(*ParseError); !ok || (pe.Msg[:7] == "invalid" && len(data) < 1000) {
				t.Errorf("refused valid JSON %q: %v", data, perr)
			}
		}
		if root != nil && (root.Line < 1 || root.Column < 1) {
			t.Errorf("root at %d:%d", root.Line, root.Column)
		}
	})
}

func FuzzLoadTranscript(f *testing.F) {
	addSeeds(f, "testdata/bad/transcript*", "testdata/bad/*.jsonl", "../fixtures/*/transcript*")
	f.Add([]byte("{\"user_name\":\"a\"}\n{\"mes\":\"x\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"t.yaml", "t.jsonl"} {
			p := fuzzFile(t, name, data)
			_, ds, err := LoadTranscript(p)
			checkResult(t, p, ds, err)
		}
	})
}

func FuzzLoadVars(f *testing.F) {
	addSeeds(f, "../fixtures/*/vars*")
	f.Add([]byte(`{"gold": 3, "x": [1, {"y": null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := fuzzFile(t, "v.yaml", data)
		_, ds, err := LoadVars(p)
		checkResult(t, p, ds, err)
	})
}
