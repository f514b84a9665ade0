package sillytavern

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/docexamples"
	"github.com/lorekit/lore/internal/golden"
)

// changesSection is the part of docs/engines.md that lists what changed
// from SillyTavern 1.12.6 to 1.18.0, each row with an example.
const changesSection = "SillyTavern 1.12.6 → 1.18.0"

// TestDocsChanges renders every example of docs/engines.md's "SillyTavern
// 1.12.6 → 1.18.0" section with the sillytavern engine at both releases
// and compares the listing under it (-update rewrites the listings and the
// examples' conformance cases). An example whose book is a World Info book
// is also a case of the conformance corpus (testdata/cases/changes), so
// what it lists for each release is what that release's own code does; one
// whose book is a character card (the oracle runs World Info books only)
// is read from SillyTavern's source, as the page says.
func TestDocsChanges(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	rows, examples := docexamples.Parse(lines, changesSection, "V", commentedFile)
	if err := docexamples.Check(rows, examples, "book.json", "chat.jsonl"); err != nil {
		t.Fatalf("docs/engines.md, the %s section: %v", changesSection, err)
	}
	docexamples.Compare(t, docsPath, lines, examples, golden.Update(), "engine/sillytavern",
		func(ex docexamples.Example) []string { return changeListing(t, docExample{ex}) },
		func(ex docexamples.Example) {
			if !isCard(ex.Files["book.json"]) {
				docExample{ex}.checkCaseIn(t, "changes")
			}
		})
}

func isCard(book string) bool { return strings.Contains(book, `"spec"`) }

// changeListing renders the example at 1.18.0 and at 1.12.6: the prompt,
// one message a line, then each outlet's text.
func changeListing(t *testing.T, ex docExample) []string {
	var out []string
	for _, v := range []string{Version118, Version126} {
		in := ex.input(t)
		in.EngineSettings["version"] = v
		var sl *slots
		var sc *scan
		err := New().runTurns(in, []int{len(in.Transcript.Messages)}, func(_ int, tu turn) error {
			out = append(out, "SillyTavern "+v)
			out = append(out, docexamples.Listing(tu.res)...)
			sl, sc = tu.sl, tu.sc
			return nil
		})
		if err != nil {
			t.Fatalf("example %s, %s: %v", ex.ID, v, err)
		}
		names := append([]string(nil), sl.outletNames...)
		sort.Strings(names)
		for _, name := range names {
			var parts, ids []string
			for _, e := range sl.outlets[name] {
				parts, ids = append(parts, sc.content[e.idx]), append(ids, e.src.ID)
			}
			out = append(out, "  outlet "+name+" ["+strings.Join(ids, ", ")+"]: "+strings.Join(parts, "⏎"))
		}
	}
	return out
}
