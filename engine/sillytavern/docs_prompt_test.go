package sillytavern

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/docexamples"
	"github.com/lorekit/lore/internal/golden"
)

// TestDocsPromptExamples renders every example of docs/engines.md's
// section on SillyTavern's prompt (the context budget, regex scripts) and
// compares the listing under it: the messages sent, then the budget line
// (-update rewrites the listings).
func TestDocsPromptExamples(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	rows, examples := docexamples.Parse(lines, "SillyTavern's prompt: the context budget and regex scripts", "P", commentedFile)
	if err := docexamples.Check(rows, examples, "book.json", "chat.jsonl"); err != nil {
		t.Fatalf("docs/engines.md, SillyTavern's prompt: %v", err)
	}
	if len(examples) != 6 {
		t.Fatalf("%d examples, want 6", len(examples))
	}
	docexamples.Compare(t, docsPath, lines, examples, golden.Update(), "engine/sillytavern",
		func(ex docexamples.Example) []string { return promptListing(t, docExample{ex}) }, nil)
}

func promptListing(t *testing.T, ex docExample) []string {
	res, err := New().Render(ex.input(t))
	if err != nil {
		t.Fatalf("example %s: %v", ex.ID, err)
	}
	out := append([]string{"--engine sillytavern"}, docexamples.Listing(res)...)
	r := res.Report
	budget := fmt.Sprintf("(%d of %d tokens: prompt %d, world-info %d, examples %d, history %d", r.Total, r.Available,
		r.Section("prompt").Tokens, r.Section("world-info").Tokens, r.Section("examples").Tokens, r.Section("history").Tokens)
	if sum := r.Section("prompt").Tokens + r.Section("world-info").Tokens + r.Section("examples").Tokens + r.Section("history").Tokens; sum != r.Total {
		t.Errorf("example %s: the sections add up to %d, the total is %d", ex.ID, sum, r.Total)
	}
	if cut := r.HistoryCut.Text(); cut != "" {
		budget += "; " + cut
	}
	for _, id := range r.Section("examples").Dropped {
		budget += "; example " + id + " left out"
	}
	return append(out, budget+")")
}
