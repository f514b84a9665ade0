package settings

import (
	"go/build"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/lorekit/lore"

// deps lists the module's packages pkg imports, directly or not (test files
// left out), as `go list -deps` would, read from the sources.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	seen := map[string]bool{}
	var walk func(path string)
	walk = func(path string) {
		if seen[path] {
			return
		}
		seen[path] = true
		dir := filepath.Join("..", filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(path, module), "/")))
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				walk(imp)
			}
		}
	}
	walk(pkg)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Settings are resolved here, not in lint: render and lore test's runner
// must not need the linter to know a lorebook's settings.
func TestRenderAndTestrunDoNotImportLint(t *testing.T) {
	for _, pkg := range []string{module + "/render", module + "/testrun"} {
		ds := deps(t, pkg)
		if slices.Contains(ds, module+"/lint") {
			t.Errorf("%s imports lint (its dependencies: %s)", pkg, strings.Join(ds, ", "))
		}
		if len(ds) < 2 {
			t.Errorf("%s: found no dependencies at all: %v", pkg, ds)
		}
	}
	// The walk sees what it must: lint is among cmd's.
	if !slices.Contains(deps(t, module+"/cmd"), module+"/lint") {
		t.Error("the dependency walk does not find lint under cmd")
	}
	// And the resolver itself needs no engine, so lint may use it.
	for _, d := range deps(t, module+"/settings") {
		if strings.HasPrefix(d, module+"/engine") || d == module+"/lint" {
			t.Errorf("settings imports %s", d)
		}
	}
}
