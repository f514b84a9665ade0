package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/schema"
)

// writeBook writes a single-file lorebook of n entries that reference each other:
// every entry's content names the keywords of two others (so the trigger graph
// has ~2n edges and long cycles), a few share keywords or contain each other's,
// and some carry conditions and output-format blocks, so every rule has work.
func writeBook(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("name: Generated\nvariables:\n  - {id: phase, type: string, default: act1}\n  - {id: gold, type: number, default: 0}\nentries:\n")
	kw := func(i int) string { return fmt.Sprintf("place%dx", i%n) }
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - id: entry-%d\n", i)
		switch {
		case i%100 == 0:
			b.WriteString("    section: system-presets\n")
		case i%100 == 1:
			b.WriteString("    section: post-history\n")
		default:
			b.WriteString("    section: chat-history\n")
			fmt.Fprintf(&b, "    keywords: [%s, region%d]\n", kw(i), i%(n/2+1))
		}
		if i%10 == 3 {
			b.WriteString("    conditions:\n      - {variableId: phase, operator: eq, value: act2}\n      - {variableId: gold, operator: gt, value: 5}\n")
		}
		if i%7 == 0 {
			b.WriteString("    matchWholeWords: true\n")
		}
		b.WriteString("    content: |-\n")
		fmt.Fprintf(&b, "      The road from %s leads to %s, past the old mill and the river.\n", kw(i*7+1), kw(i*13+5))
		b.WriteString("      Travellers talk of barrels, taverns and the weather in the valley.\n")
		if i%50 == 2 {
			b.WriteString("      ---\n      status:\n        rule: end with the status\n        format: |-\n          <status>\n          mood: ${mood}\n          </status>\n")
		}
	}
	path := filepath.Join(tb.TempDir(), "book.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

func benchLoad(b *testing.B, n int) {
	path := writeBook(b, n)
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := schema.Load(path); err != nil {
			b.Fatal(err)
		}
	}
}

func benchLint(b *testing.B, n int) {
	path := writeBook(b, n)
	book, ds, err := schema.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var out int
	for b.Loop() {
		out = len(runWith(book, nil, nil, ds))
	}
	b.ReportMetric(float64(out), "findings")
}

// BenchmarkValidate is what `lore validate` costs on the same file (load and
// schema check), the yardstick for BenchmarkLint.
func BenchmarkValidate10k(b *testing.B) { benchLoad(b, 10000) }
func BenchmarkValidate20k(b *testing.B) { benchLoad(b, 20000) }
func BenchmarkLint10k(b *testing.B)     { benchLint(b, 10000) }
func BenchmarkLint20k(b *testing.B)     { benchLint(b, 20000) }

// BenchmarkLintShapes lints the books of the README's performance table
// (internal/bookgen) as loaded, without the load: what lint adds to validate.
func BenchmarkLintShapes(b *testing.B) {
	for _, s := range []bookgen.Shape{bookgen.JSON, bookgen.SillyTavern} {
		b.Run(string(s), func(b *testing.B) {
			path, err := bookgen.Write(b.TempDir(), s, 10000)
			if err != nil {
				b.Fatal(err)
			}
			lb, _, err := formats.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				runWith(lb, nil, nil, nil)
			}
		})
	}
}
