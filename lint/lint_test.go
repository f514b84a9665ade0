package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/internal/golden"
	"github.com/lorekit/lore/schema"
)

// lintFile loads a lorebook the way `lore lint` does (schema diagnostics merged,
// a sibling NAME.vars.yml as --vars) and returns its findings as text lines.
// A rule that is off by default runs, at its own level, on the files of its
// own testdata folder.
func lintFile(t *testing.T, path string) string {
	t.Helper()
	book, ds, err := schema.Load(path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	var vars *schema.Vars
	if vp := strings.TrimSuffix(path, ".yaml") + ".vars.yml"; fileExists(vp) {
		v, vds, err := schema.LoadVars(vp)
		if err != nil || len(vds) > 0 {
			t.Fatalf("vars %s: %v %v", vp, err, vds)
		}
		vars = v
	}
	cfg := &Config{Rules: map[string]diag.Severity{}}
	if r := byID(filepath.Base(filepath.Dir(path))); r != nil && r.Off {
		cfg.Rules[r.ID] = r.Severity
	}
	return format(runWith(book, vars, cfg, ds))
}

func format(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Pos().String() + ": " + d.Severity.String() + ": " + d.Message + " [" + d.Rule + "]\n")
	}
	return b.String()
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestRules runs every testdata/rules/<rule>/*.yaml: bad*.yaml must print exactly
// its .out file (and fire its folder's rule); ok*.yaml must stay quiet.
func TestRules(t *testing.T) {
	dirs, err := filepath.Glob("testdata/rules/*")
	if err != nil || len(dirs) == 0 {
		t.Fatal("no testdata/rules")
	}
	seen := map[string]bool{}
	for _, dir := range dirs {
		rule := filepath.Base(dir)
		seen[rule] = true
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, f := range files {
			name := filepath.Base(f)
			t.Run(rule+"/"+name, func(t *testing.T) {
				got := lintFile(t, f)
				if strings.HasPrefix(name, "ok") {
					if got != "" {
						t.Errorf("%s must stay quiet, got:\n%s", f, got)
					}
					return
				}
				out := strings.TrimSuffix(f, ".yaml") + ".out"
				golden.Check(t, out, []byte(got))
				if !strings.Contains(got, "["+rule+"]") {
					t.Errorf("%s does not fire %s", f, rule)
				}
			})
		}
	}
	for _, r := range Rules() {
		if !seen[r.ID] {
			t.Errorf("rule %s has no testdata/rules/%s", r.ID, r.ID)
		}
	}
}
