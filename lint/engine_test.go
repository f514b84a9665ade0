package lint

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

func ignore(reason string, ids ...string) func(*schema.Entry) {
	return func(e *schema.Entry) {
		for i, id := range ids {
			e.Lint.Ignore = append(e.Lint.Ignore, schema.Keyword{Text: id, Pos: schema.Pos{File: "book.yaml", Line: 9, Col: 10 + i}})
		}
		e.Lint.Reason = reason
		e.Lint.Pos = schema.Pos{File: "book.yaml", Line: 8, Col: 5}
	}
}

func empty(e *schema.Entry) { e.Content = "" }

func TestSuppressions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		entry *schema.Entry
		want  []string // rule ids, in output order
	}{
		{"finding reported", entry("qzx", empty), []string{"empty-content"}},
		{"ignored with reason", entry("qzx", empty, ignore("draft", "empty-content")), nil},
		{"ignore without reason still works but is reported", entry("qzx", empty, ignore("", "empty-content")), []string{LintDirective}},
		{"unused ignore", entry("qzx", ignore("old", "keyword-overlap")), []string{UnusedIgnore}},
		{"unknown rule id", entry("qzx", empty, ignore("x", "empty-content", "no-such-rule")), []string{LintDirective}},
		{"ignoring unused-ignore silences it", entry("qzx", ignore("x", "keyword-overlap", UnusedIgnore)), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(&schema.Lorebook{Entries: []*schema.Entry{tc.entry}}, nil, nil)
			var rules []string
			for _, d := range got {
				rules = append(rules, d.Rule)
			}
			if strings.Join(rules, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got %v, want %v:\n%s", rules, tc.want, format(got))
			}
		})
	}
}

// Suppressions apply to the loader's findings too, matched to the entry by line.
func TestSuppressLoaderFinding(t *testing.T) {
	e := entry("qzx", ignore("legacy id", "schema"))
	e.Pos.Line = 5
	loaded := []diag.Diagnostic{{File: "book.yaml", Line: 6, Column: 3, Severity: diag.Error, Rule: "schema", Message: "bad"}}
	if got := runWith(&schema.Lorebook{Entries: []*schema.Entry{e}}, nil, nil, loaded); len(got) != 0 {
		t.Errorf("want the schema finding suppressed, got:\n%s", format(got))
	}
}

// duplicate-id is reported once whether the loader found it or not.
func TestDuplicateIDOnce(t *testing.T) {
	a, b := entry("a"), entry("a")
	b.Pos.Line = 9
	book := &schema.Lorebook{Entries: []*schema.Entry{a, b}}
	count := func(ds []diag.Diagnostic) (n int) {
		for _, d := range ds {
			if d.Rule == "duplicate-id" {
				n++
			}
		}
		return
	}
	if n := count(run(book, nil, nil)); n != 1 {
		t.Errorf("lint alone: %d duplicate-id findings", n)
	}
	loaded := []diag.Diagnostic{{File: "book.yaml", Line: 9, Column: 3, Severity: diag.Error, Rule: "duplicate-id", Message: "from the loader"}}
	if n := count(runWith(book, nil, nil, loaded)); n != 1 {
		t.Errorf("with the loader's: %d duplicate-id findings", n)
	}
	// A book whose loader found its ids unique is taken at its word (the
	// flag is wrong here on purpose, to show the rule does not look again).
	book.UniqueIDs = true
	if n := count(run(book, nil, nil)); n != 0 {
		t.Errorf("ids said unique: %d duplicate-id findings", n)
	}
}

func TestDeterministicAndNilSafe(t *testing.T) {
	if got := run(&schema.Lorebook{}, nil, nil); len(got) != 0 {
		t.Errorf("empty lorebook: %v", got)
	}
	if got := runWith(nil, nil, nil, []diag.Diagnostic{{Rule: "load", Severity: diag.Error}}); len(got) != 1 {
		t.Errorf("nil book keeps loader diagnostics: %v", got)
	}
	build := func() *schema.Lorebook {
		var es []*schema.Entry
		for _, id := range []string{"dragon", "castle", "king", "wyrm", "bar", "sandbar"} {
			es = append(es, entry(id, func(e *schema.Entry) {
				e.Content = "the dragon, the castle, the king, the wyrm, barrels and a sandbar"
			}))
		}
		return &schema.Lorebook{Entries: es}
	}
	first := format(run(build(), nil, nil))
	for i := 0; i < 5; i++ {
		if got := format(run(build(), nil, nil)); got != first {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, got, first)
		}
	}
}

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("rule %s registered twice", r.ID)
		}
		seen[r.ID] = true
		if r.Description == "" || r.Help == "" || r.Severity == 0 {
			t.Errorf("rule %s lacks description, help or severity", r.ID)
		}
	}
	for _, id := range []string{"schema", "duplicate-id", "keyword-collision", "keyword-overlap", "recursion-loop",
		"unreachable-entry", "undefined-variable", "condition-type", "depth-ignored", "keywords-ignored",
		"examples-format", "whole-word-cjk", "invalid-regex", "format-template", "required-over-cap",
		"entry-over-budget", "empty-content"} {
		if !seen[id] {
			t.Errorf("SPEC §6 rule %s missing", id)
		}
	}
}

// FuzzFormatTemplate feeds arbitrary content to the output-format checker, the
// one rule that parses text: it must never panic.
func FuzzFormatTemplate(f *testing.F) {
	f.Add("---\nstatus:\n  rule: r\n  format: |-\n    <a>${x}$(y)\n    </a>\n...\n")
	f.Add("---\na:\n  format:\n    b: ${c}\n    c: ${b}\n")
	f.Add("---\n: [\n")
	f.Add("---\nx: \"${\u00e9\n")
	f.Fuzz(func(t *testing.T, content string) {
		e := entry("e", func(e *schema.Entry) { e.Section = schema.SectionPostHistory; e.AlwaysSend = true; e.Content = content })
		run(&schema.Lorebook{Entries: []*schema.Entry{e}}, nil, nil)
	})
}
