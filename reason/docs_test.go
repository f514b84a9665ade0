package reason

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/golden"
)

// TestDocsReasons: docs/reasons.md lists every code, each said with its
// example params by Text, the function every output uses.
func TestDocsReasons(t *testing.T) {
	golden.Check(t, "../docs/reasons.md", []byte(reasonsDoc()))
}

func reasonsDoc() string {
	var b strings.Builder
	b.WriteString(`# Reasons

What an engine says about an entry — why it is in the prompt or not (` + "`lore render --explain`" + `),
what can never bring it in and where it lands (what ` + "`lore lint`" + ` judges by) — is data: a **code**,
the entry **field** it comes from with that field's **line** and **column** (as the file the book
was read from spells it: ` + "`disable`" + ` in a SillyTavern file, ` + "`enabled`" + ` in a card or a lore file,
` + "`extensions.probability`" + ` in a card), and **params**. ` + "`lore render --explain ID --format json`" + `
gives each as ` + "`{code, field, line, column, params, text}`" + `; ` + "`text`" + ` is the sentence below, the
one every output prints. Codes are stable; a new sentence gets a new code.

A lint finding caused by a field is reported at it: an entry SillyTavern never sends because
its ` + "`probability`" + ` is 0 at ` + "`probability`" + `, one Yumina sends nowhere because its ` + "`depth`" + ` is null
at ` + "`depth`" + `.

This file is written by the tests from package ` + "`reason`" + ` (` + "`go test ./reason -update`" + `); each
sentence is said with example params.
`)
	groups := []struct{ prefix, title string }{
		{"", "Shared by the engines"}, {"lore.", "lore's engine"}, {"yumina.", "Yumina"}, {"sillytavern.", "SillyTavern"},
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "\n## %s\n\n| code | params | says |\n|---|---|---|\n", g.title)
		for _, r := range Codes() {
			code := string(r.Code)
			own := strings.HasPrefix(code, "lore.") || strings.HasPrefix(code, "yumina.") || strings.HasPrefix(code, "sillytavern.")
			if g.prefix == "" && own || g.prefix != "" && !strings.HasPrefix(code, g.prefix) {
				continue
			}
			var names []string
			for _, p := range r.Params {
				names = append(names, p.Name)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", code, strings.Join(names, ", "), cell(r.Text()))
		}
	}
	return b.String()
}

// cell is text for a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
