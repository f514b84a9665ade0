// Package docexamples reads the examples of an engine's section of
// docs/engines.md — a table whose rows are numbered (Y1, S1, …) and, under a
// "### Y1. …" heading per row, the example's files as code blocks and a
// ```text block listing the prompts each engine sends — and rewrites those
// listings. The engines' docs tests use it, so that the page cannot drift
// from the engines. It is imported by tests only.
package docexamples

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/lorekit/lore/render"
)

// Example is one example: its files by name and where its listing is.
type Example struct {
	ID string // the row's number, lower-cased: "y3", "s12"
	// Files are the example's code blocks, by the name NameOf gave them.
	Files map[string]string
	// OutStart and OutEnd are the lines (0-based, end excluded) of the
	// ```text block's body.
	OutStart, OutEnd int
}

// NameOf says whether a code block is one of an example's files, from its
// fence line ("```yaml") and its first line, and which.
type NameOf func(fence, first string) (string, bool)

// Parse finds, in the "## section" part of lines, the rows of the table
// numbered with prefix (a letter) and the examples under "### PREFIXn."
// headings.
func Parse(lines []string, section, prefix string, name NameOf) (rows []string, out []Example) {
	heading := regexp.MustCompile(`^### (` + prefix + `\d+)\. `)
	row := regexp.MustCompile(`^\| (` + prefix + `\d+) \|`)
	in := false
	var cur *Example
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") {
			in = l == "## "+section
			continue
		}
		if !in {
			continue
		}
		if m := row.FindStringSubmatch(l); m != nil {
			rows = append(rows, m[1])
		}
		if m := heading.FindStringSubmatch(l); m != nil {
			out = append(out, Example{ID: strings.ToLower(m[1]), Files: map[string]string{}})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil || !strings.HasPrefix(l, "```") || l == "```" {
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		switch {
		case l == "```text":
			cur.OutStart, cur.OutEnd = i+1, end
		case i+1 < end:
			if n, ok := name(l, lines[i+1]); ok {
				cur.Files[n] = strings.Join(lines[i+2:end], "\n") + "\n"
			}
		}
		i = end
	}
	return rows, out
}

// Check makes sure every row has its example, in order, each with the
// files it must have and a listing.
func Check(rows []string, examples []Example, files ...string) error {
	if len(rows) == 0 || len(examples) != len(rows) {
		return fmt.Errorf("%d rows in the table, %d examples", len(rows), len(examples))
	}
	for i, ex := range examples {
		if want := strings.ToLower(rows[i]); ex.ID != want {
			return fmt.Errorf("example %d is %s, the table's row is %s", i+1, ex.ID, want)
		}
		if ex.OutStart == 0 {
			return fmt.Errorf("example %s has no ```text block", ex.ID)
		}
		for _, f := range files {
			if ex.Files[f] == "" {
				return fmt.Errorf("example %s has no %s block", ex.ID, f)
			}
		}
	}
	return nil
}

// Listing is the prompt a Result holds, one message a line:
// "  role (name) [sources]: content", the name when the engine gives one,
// the sources but transcript messages, a line break shown as ⏎.
func Listing(res *render.Result) []string {
	var out []string
	for _, m := range res.Messages {
		var ids []string
		for _, s := range m.Sources {
			if !strings.HasPrefix(s, "message:") {
				ids = append(ids, s)
			}
		}
		src := ""
		if len(ids) > 0 {
			src = " [" + strings.Join(ids, ", ") + "]"
		}
		role := m.Role
		if m.Name != "" {
			role += " (" + m.Name + ")"
		}
		out = append(out, fmt.Sprintf("  %s%s: %s", role, src, strings.ReplaceAll(m.Content, "\n", "⏎")))
	}
	return out
}

// Rewrite writes lines to path with the listings whose first line is a key
// of replace put in place of what the ```text blocks held.
func Rewrite(path string, lines []string, replace map[int][]string) error {
	if len(replace) == 0 {
		return nil
	}
	var out []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		if got, ok := replace[i+1]; ok {
			out = append(out, got...)
			for i+1 < len(lines) && lines[i+1] != "```" {
				i++
			}
		}
	}
	return os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644)
}

// Compare holds each example's listing (what listing renders) to the
// ```text block under it in the document at path, whose lines are given: a
// difference fails t, naming the command that rewrites it (pkg's
// TestDocsExamples with -update); with update the document is rewritten
// instead. each, when not nil, then runs for the example.
func Compare(t testing.TB, path string, lines []string, examples []Example, update bool, pkg string, listing func(Example) []string, each func(Example)) {
	t.Helper()
	replace := map[int][]string{}
	shown := strings.TrimLeft(path, "./")
	for _, ex := range examples {
		got := listing(ex)
		want := lines[ex.OutStart:ex.OutEnd]
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			if update {
				replace[ex.OutStart] = got
			} else {
				t.Errorf("%s:%d: example %s lists\n%s\nbut the engines send\n%s\n(go test ./%s -run TestDocsExamples -update)",
					shown, ex.OutStart, ex.ID, strings.Join(want, "\n"), strings.Join(got, "\n"), pkg)
			}
		}
		if each != nil {
			each(ex)
		}
	}
	if err := Rewrite(path, lines, replace); err != nil {
		t.Fatal(err)
	}
}
