package engine

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/imports"
)

const module = imports.Module

// deps lists the module's packages pkg imports (internal/imports).
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	ds, err := imports.Of("..", pkg)
	if err != nil {
		t.Fatal(err)
	}
	return ds
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
