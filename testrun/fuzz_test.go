package testrun

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad: no test file, however broken, panics the loader; one that loads
// without a diagnostic has cases, each with something to check.
func FuzzLoad(f *testing.F) {
	for _, p := range []string{"../fixtures/eldoria/failing-tests.yaml", "../fixtures/eldoria/tests/turns.yaml", "../fixtures/sakura/lore.test.yaml",
		"testdata/replies/tests/replies.yaml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"lorebook": "b", "cases": [{"name": "a", "expect": {"active": ["x"]}}]}`))
	f.Add([]byte("lorebook: b\ncases:\n  - &c {name: a, expect: {}}\n  - <<: *c\n    name: b\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "t.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		file, ds, err := Load(path)
		if err != nil || len(ds) > 0 {
			return
		}
		if file == nil || len(file.Cases) == 0 {
			t.Fatalf("a clean load without cases: %q", data)
		}
		for _, c := range file.Cases {
			if len(c.Turns) == 0 || c.Runs < 1 {
				t.Fatalf("case %q: %d turns, %d runs", c.Name, len(c.Turns), c.Runs)
			}
			for _, tr := range c.Turns {
				if tr.Expect == nil {
					t.Fatalf("case %q: a turn without expectations", c.Name)
				}
			}
		}
	})
}
