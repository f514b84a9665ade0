package engine

import (
	"go/build"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/lorekit/lore"

// deps lists the module's packages pkg imports, directly or not, without
// its tests (what `go list -deps` lists of the module's own packages).
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	seen := map[string]bool{}
	var visit func(p string)
	visit = func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		dir := filepath.Join("..", strings.TrimPrefix(strings.TrimPrefix(p, module), "/"))
		bp, err := build.Default.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, imp := range bp.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				visit(imp)
			}
		}
	}
	visit(pkg)
	delete(seen, pkg)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// TestNothingKnowsEnginesByName: lint, the outputs, render and the
// sentences import no engine package. They read what an engine is and does
// from its profile and its description (render.Profile, render.Description,
// reason); cmd resolves the engine through this registry and hands it over.
// `go list -deps ./lint | grep lorekit/lore/engine` is empty.
func TestNothingKnowsEnginesByName(t *testing.T) {
	for _, pkg := range []string{"lint", "output", "render", "reason"} {
		for _, d := range deps(t, module+"/"+pkg) {
			if d == module+"/engine" || strings.HasPrefix(d, module+"/engine/") {
				t.Errorf("%s imports %s", pkg, d)
			}
		}
	}
	// The walk sees what lint does import.
	if ds := deps(t, module+"/lint"); !contains(ds, module+"/render") || !contains(ds, module+"/reason") {
		t.Fatalf("lint's imports: %v", ds)
	}
	if ds := deps(t, module+"/engine"); !contains(ds, module+"/engine/sillytavern") {
		t.Fatalf("the registry's imports: %v", ds)
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
