package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/scaling"
)

// genTestRepo writes a lorebook repository: books folder lorebooks of
// entries entries each (four entry files, one keyword each, a few sharing
// one keyword, system presets and examples too), a 20-message transcript
// beside each, and a tests/cases.yaml with cases cases per book that use
// every kind of expectation: a quarter each with an inline chat (active,
// inactive, per-entry step and trigger, order, prompt), with the
// transcript file and a token budget, with two turns, and with 5 runs for
// a frequency; the first case of a book also has a snapshot.
func genTestRepo(tb testing.TB, dir string, books, entries, cases int) {
	tb.Helper()
	write := func(p, text string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	word := func(i int) string { return fmt.Sprintf("word%05d", i) }
	for b := range books {
		root := filepath.Join(dir, fmt.Sprintf("book%02d", b))
		write(filepath.Join(root, "book", "lorebook.yaml"), fmt.Sprintf(
			"name: Book %d\ncharacter: Vel\nsettings: {contextTokens: 16384}\npresets: [fiction-mode]\n", b))
		per := entries / 4
		for f := range 4 {
			var sb strings.Builder
			for i := f * per; i < (f+1)*per; i++ {
				section := "chat-history"
				switch {
				case i == 0:
					section = "system-presets"
				case i == 1:
					section = "examples"
				}
				kw := word(i)
				if i%50 == 7 {
					kw = "shared" // many entries on one keyword
				}
				fmt.Fprintf(&sb, "- id: e%05d\n  section: %s\n  keywords: [%s, other%05d]\n", i, section, kw, i)
				if i%10 == 3 {
					fmt.Fprintf(&sb, "  depth: %d\n", i%4)
				}
				if section == "examples" {
					sb.WriteString("  content: |-\n    <START>\n    {{user}}: Hello.\n    {{char}}: Hello to you.\n")
					continue
				}
				fmt.Fprintf(&sb, "  content: Entry %d of book %d tells of %s, of the harbour and the road north, of debts and favours.\n", i, b, kw)
			}
			write(filepath.Join(root, "book", "entries", fmt.Sprintf("part%d.yaml", f)), sb.String())
		}
		var tr strings.Builder
		tr.WriteString("messages:\n")
		for m := range 20 {
			role := "user"
			if m%2 == 1 {
				role = "assistant"
			}
			fmt.Fprintf(&tr, "  - {role: %s, content: \"Message %d speaks of %s and of the weather.\"}\n", role, m, word(2+m*3))
		}
		write(filepath.Join(root, "transcript.yaml"), tr.String())

		var ts strings.Builder
		ts.WriteString("lorebook: ../book\ncases:\n")
		for c := range cases {
			a, x := 2+(c*7)%(entries-2), 2+(c*7+3)%(entries-2)
			if a%50 == 7 || x%50 == 7 || a == x {
				a, x = 4, 6
			}
			fmt.Fprintf(&ts, "  - name: case %d\n", c)
			switch c % 4 {
			case 0:
				fmt.Fprintf(&ts, "    transcript: [{role: user, content: \"I ask about %s, then %s.\"}]\n", word(a), word(x))
				ts.WriteString("    expect:\n")
				fmt.Fprintf(&ts, "      active: [e%05d, e%05d]\n      inactive: [e%05d]\n", a, x, 2+(a-1)%(entries-2))
				fmt.Fprintf(&ts, "      entries: {e%05d: {trigger: {keyword: %s, in: \"message:0\"}}}\n", a, word(a))
				fmt.Fprintf(&ts, "      prompt: {contains: [Entry %d of book %d], notContains: [nothing like this]}\n", a, b)
				if c == 0 {
					ts.WriteString("      snapshot: first\n")
				}
			case 1:
				ts.WriteString("    transcript: ../transcript.yaml\n    expect:\n")
				fmt.Fprintf(&ts, "      active: [e00002, e00005]\n      order: [e00000, e00002]\n")
				ts.WriteString("      tokens: {total: {max: 12000}, section: {cards: {max: 3000}}, cut: []}\n")
			case 2:
				ts.WriteString("    transcript: ../transcript.yaml\n    turns:\n")
				ts.WriteString("      - at: 4\n        expect: {active: [e00002, e00005], inactive: [e00014]}\n")
				ts.WriteString("      - expect: {active: [e00014]}\n")
			case 3:
				fmt.Fprintf(&ts, "    transcript: [{role: user, content: \"Tell me of %s.\"}]\n    runs: 5\n", word(a))
				fmt.Fprintf(&ts, "    expect: {frequency: {e%05d: {min: 100}}}\n", a)
			}
		}
		write(filepath.Join(root, "tests", "cases.yaml"), ts.String())
	}
	// One run with -u writes the snapshots the timed runs compare with.
	if code := Main([]string{"test", "-u", dir}, IO{Stdout: io.Discard, Stderr: io.Discard}); code != 0 {
		var out strings.Builder
		Main([]string{"test", dir}, IO{Stdout: &out, Stderr: &out})
		tb.Fatalf("the generated repository's tests do not pass (exit %d):\n%.3000s", code, out.String())
	}
}

// BenchmarkTestRepo is `lore test .` on a repository of 50 lorebooks of 200
// entries with 10 cases each, 500 cases in all.
func BenchmarkTestRepo(b *testing.B) {
	dir := b.TempDir()
	genTestRepo(b, dir, 50, 200, 10)
	b.ResetTimer()
	for b.Loop() {
		if code := Main([]string{"test", dir}, IO{Stdout: io.Discard, Stderr: io.Discard}); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(500*b.N)/b.Elapsed().Seconds(), "cases/s")
}

// TestTestAllocsLinearInCases guards against work that grows faster than the
// cases: doubling the cases of the same lorebooks may at most about double
// the allocations (counts, unlike times, do not depend on the machine's load).
// The lorebooks are small, so that a render costs few allocations and the
// runner's own share shows: one allocation per pair of cases (1,000 cases:
// 3.1 million allocations in all) takes the ratio from 1.99 to 2.48.
func TestTestAllocsLinearInCases(t *testing.T) {
	if testing.Short() {
		t.Skip("generates two repositories")
	}
	allocs := func(cases int) uint64 {
		dir := t.TempDir()
		genTestRepo(t, dir, 10, 24, cases)
		return scaling.Measure(func() {
			if code := Main([]string{"test", dir}, IO{Stdout: io.Discard, Stderr: io.Discard}); code != 0 {
				t.Fatalf("exit %d", code)
			}
		}).Allocs
	}
	small, large := allocs(100), allocs(200)
	ratio := float64(large) / float64(small)
	t.Logf("allocations: %d for 1000 cases, %d for 2000 (×%.2f)", small, large, ratio)
	if ratio > 2.2 {
		t.Errorf("doubling the cases multiplied the allocations by %.2f (> 2.2): something grows faster than the cases", ratio)
	}
}
