// Package imports lists which of lore's own packages a package depends on,
// read from the sources with go/build: what `go list -deps` lists of the
// module's packages, for the tests that hold the architecture's seams
// (lint imports no engine, render and testrun no lint).
package imports

import (
	"fmt"
	"go/build"
	"path/filepath"
	"slices"
	"strings"
)

// Module is lore's module path.
const Module = "github.com/lorekit/lore"

// Of lists, sorted, the module's packages that pkg imports, directly or not,
// test files left out and pkg itself not listed. root is the module's folder.
func Of(root, pkg string) ([]string, error) {
	seen := map[string]bool{}
	var walk func(p string) error
	walk = func(p string) error {
		if seen[p] {
			return nil
		}
		seen[p] = true
		dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(p, Module), "/")))
		bp, err := build.ImportDir(dir, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, imp := range bp.Imports {
			if imp == Module || strings.HasPrefix(imp, Module+"/") {
				if err := walk(imp); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(pkg); err != nil {
		return nil, err
	}
	delete(seen, pkg)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}
