package lint

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
)

// shapes are the lorebook shapes whose cost must grow linearly with the number
// of entries: the ones where a per-pair or per-pattern loop would be quadratic.
//
// perEntry is the most allocations per entry lint may make at 2,000 entries,
// about 15 % over what it makes (11.6, 2.2 and 1.2 in this round; 28, 4.2
// and 13 before it), so a change that brings allocations back per keyword,
// per hit or per edge fails.
var shapes = []struct {
	name     string
	build    func(n int) *schema.Lorebook
	perEntry float64
}{
	// Every entry its own keywords; contents name two other entries' keywords.
	{"distinct", func(n int) *schema.Lorebook {
		return genBook(n, func(i int) ([]string, string) {
			return []string{fmt.Sprintf("place%dx", i), fmt.Sprintf("region%dx", i%(n/2+1))},
				fmt.Sprintf("The road from place%dx leads to place%dx, past the mill.", (i*7+1)%n, (i*13+5)%n)
		})
	}, 13.5},
	// Every entry has the keyword tavern and mentions it: one collision of n
	// entries, one strongly connected group of n entries.
	{"shared", func(n int) *schema.Lorebook {
		return genBook(n, func(i int) ([]string, string) {
			return []string{"tavern"}, fmt.Sprintf("The tavern number %d serves ale.", i)
		})
	}, 2.5},
	// Long contents that each name twenty other entries: a dense trigger
	// graph with long cycles.
	{"recursive", func(n int) *schema.Lorebook {
		return genBook(n, func(i int) ([]string, string) {
			var b strings.Builder
			for k := 1; k <= 20; k++ {
				fmt.Fprintf(&b, "Near hall%dx stands a tower. ", (i+k*k)%n)
			}
			return []string{fmt.Sprintf("hall%dx", i)}, b.String()
		})
	}, 1.4},
}

func genBook(n int, entry func(i int) ([]string, string)) *schema.Lorebook {
	book := &schema.Lorebook{Path: "gen.yaml", Format: "lore"}
	book.Manifest.Settings = schema.DefaultSettings()
	for i := 0; i < n; i++ {
		kws, content := entry(i)
		e := &schema.Entry{ID: fmt.Sprintf("entry-%d", i), Section: schema.SectionChatHistory, Enabled: true,
			Content: content, SecondaryKeywordLogic: schema.AndAny, ConditionLogic: "all", Role: "lore",
			Pos: schema.Pos{File: "gen.yaml", Line: 3 + 4*i, Col: 5}}
		for k, kw := range kws {
			e.Keywords = append(e.Keywords, schema.Keyword{Text: kw, Pos: schema.Pos{File: "gen.yaml", Line: 4 + 4*i, Col: 16 + 10*k}})
		}
		book.Entries = append(book.Entries, e)
	}
	return book
}

// TestLintScalesLinearly is the deterministic guard against quadratic paths:
// allocations at 2n entries are at most 2.2 times those at n, and at most
// the shape's perEntry per entry, in every shape. (Times are measured by the
// benchmarks below, never asserted.)
func TestLintScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation guard")
	}
	const n = 1000
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			allocs := func(n int) float64 {
				book := sh.build(n)
				return testing.AllocsPerRun(2, func() { run(book, nil, nil) })
			}
			a, b := allocs(n), allocs(2*n)
			if b > 2.2*a {
				t.Errorf("%s: %.0f allocations at %d entries, %.0f at %d: ×%.2f, more than linear", sh.name, a, n, b, 2*n, b/a)
			}
			if per := b / (2 * n); per > sh.perEntry {
				t.Errorf("%s: %.1f allocations per entry at %d entries, more than %.1f", sh.name, per, 2*n, sh.perEntry)
			}
			t.Logf("%s: %.0f allocs at %d, %.0f at %d (×%.2f)", sh.name, a, n, b, 2*n, b/a)
		})
	}
}

// TestSharedKeywordAggregates pins what a keyword on every entry gives: one
// keyword-collision finding and one recursion-loop finding, whatever n is.
func TestSharedKeywordAggregates(t *testing.T) {
	ds := run(shapes[1].build(500), nil, nil)
	count := map[string]int{}
	for _, d := range ds {
		count[d.Rule]++
	}
	if count["keyword-collision"] != 1 || count["recursion-loop"] != 1 {
		t.Errorf("want one collision and one loop finding, got %v", count)
	}
	for _, d := range ds {
		switch d.Rule {
		case "keyword-collision":
			if !strings.Contains(d.Message, "on 500 entries") || !strings.Contains(d.Message, "and 495 more") {
				t.Errorf("collision does not name the group: %s", d.Message)
			}
		case "recursion-loop":
			if !strings.Contains(d.Message, "500 entries activate each other") || !strings.Contains(d.Message, "and 495 more") {
				t.Errorf("loop does not name the group: %s", d.Message)
			}
		}
	}
}

func benchShape(b *testing.B, shape, n int) {
	book := shapes[shape].build(n)
	run(book, nil, nil) // tokenizer and word lists loaded outside the timing
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		run(book, nil, nil)
	}
}

func BenchmarkLintDistinct10k(b *testing.B)  { benchShape(b, 0, 10000) }
func BenchmarkLintShared10k(b *testing.B)    { benchShape(b, 1, 10000) }
func BenchmarkLintShared100k(b *testing.B)   { benchShape(b, 1, 100000) }
func BenchmarkLintRecursive10k(b *testing.B) { benchShape(b, 2, 10000) }
func BenchmarkKeywordIndex20k(b *testing.B) {
	book := shapes[0].build(20000)
	b.ReportAllocs()
	for b.Loop() {
		c := &Context{Book: book, shared: &shared{}}
		c.keywords()
	}
}

// TestTriggerGraphBytes pins the bytes the trigger graph allocates on the
// recursive shape at 2,000 entries (44,000 edges), about 15 % over what it
// takes: its edges are one slice that append grew by a quarter at a time,
// allocating five times their final size (2.81 MB then, 2.16 MB now).
func TestTriggerGraphBytes(t *testing.T) {
	book := shapes[2].build(2000)
	c := &Context{Book: book, shared: &shared{}, Engine: loreEngine(settings.Source{})}
	c.keywords().m.Occurrences("hall1x", func(match.Occurrence) {}) // the matcher and its automaton, outside the count
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g := c.triggerGraph()
	runtime.ReadMemStats(&after)
	bytes := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes for %d edges", bytes, len(g.edges))
	if max := uint64(2_500_000); bytes > max {
		t.Errorf("the trigger graph allocated %d bytes, more than %d", bytes, max)
	}
}
