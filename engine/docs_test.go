package engine

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/golden"
	"github.com/lorekit/lore/render"
)

// TestDocsProfiles: docs/engines.md's table of what each engine is comes
// from the registry's profiles.
func TestDocsProfiles(t *testing.T) {
	const path = "../docs/engines.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "<!-- profiles: written by engine/docs_test.go from the registry -->\n", "<!-- end profiles -->\n"
	doc := string(data)
	i, j := strings.Index(doc, start), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no profiles table between %q and %q", path, start, end)
	}
	got := doc[:i+len(start)] + profilesTable() + doc[j:]
	if got == doc {
		return
	}
	if golden.Update() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the profiles table is not the registry's (go test ./engine -update):\n%s", path, profilesTable())
}

func profilesTable() string {
	var b strings.Builder
	b.WriteString("| engine | `--engine` | native formats | whole words | recursion | budget | always-sent entries | fields it reads |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, p := range Profiles() {
		formats := "–"
		if len(p.Formats) > 0 {
			formats = "`" + strings.Join(p.Formats, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s | %s | %s | `%s` |\n", p.Title, p.Name, formats, words(p),
			recursion[p.Recursion], budget[p.Budget], always[p.AlwaysSent], strings.Join(p.Reads, "`, `"))
	}
	return b.String()
}

// words says what a profile's word characters are, by trying them.
func words(p *render.Profile) string {
	if p.WordRune('é') || p.WordRune('字') {
		return "Unicode letters and digits"
	}
	return "ASCII letters, digits and `_`"
}

var (
	recursion = map[render.RecursionModel]string{
		render.RecursionLevels: "level by level, up to `recursionLimit`",
		render.RecursionOptIn:  "off unless its settings give it levels",
		render.RecursionPasses: "pass after pass while its `recursive` setting is on",
	}
	budget = map[render.BudgetModel]string{
		render.BudgetShares: "lore's: Required under a cap, then shares",
		render.BudgetOwn:    "its own, a share of the context",
	}
	always = map[render.AlwaysSent]string{
		render.AlwaysInBudget:      "counted in the budget",
		render.AlwaysOutsideBudget: "outside the budget",
	}
)
