package settings

import (
	"slices"
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
