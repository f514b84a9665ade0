package schema

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/internal/scaling"
)

// loreShapes are the shapes of lore's own format, which schema loads.
var loreShapes = []bookgen.Shape{bookgen.YAML, bookgen.JSON, bookgen.JSONMin, bookgen.SharedKeyword}

func writeBook(tb testing.TB, s bookgen.Shape, n int) string {
	tb.Helper()
	p, err := bookgen.Write(tb.TempDir(), s, n)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func BenchmarkLoad(b *testing.B) {
	for _, s := range loreShapes {
		p := writeBook(b, s, 10000)
		b.Run(string(s)+"-10000", func(b *testing.B) {
			for b.Loop() {
				lb, ds, err := Load(p)
				if err != nil || len(ds) > 0 || len(lb.Entries) != 10000 {
					b.Fatal(err, ds)
				}
			}
		})
	}
}

// TestLoadLinear guards against anything worse than linear in loading (read,
// parse, schema check, decode) in every shape of lore's own format.
func TestLoadLinear(t *testing.T) {
	for _, s := range loreShapes {
		t.Run(string(s), func(t *testing.T) {
			scaling.Linear(t, 1000, func(n int) func() {
				p := writeBook(t, s, n)
				return func() {
					lb, ds, err := Load(p)
					if err != nil || len(ds) > 0 || len(lb.Entries) != n {
						t.Fatal(err, ds)
					}
				}
			})
		})
	}
}

// TestLoadPositionsOnOneLine checks positions in a minified file: offsets
// in the last entry's content, after JSON escapes (\n, \"), map to the
// column of the same text on the file's one line.
func TestLoadPositionsOnOneLine(t *testing.T) {
	p := writeBook(t, bookgen.JSONMin, 2000)
	lb, ds, err := Load(p)
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	li := newLineIndex(p, data)
	e := lb.Entries[1999]
	for _, word := range []string{"The town", "place1999", "river glass", "gate."} {
		off := strings.Index(e.Content, word)
		got := e.PosInContent(off)
		at := li.offset(got.Line, got.Col)
		if got.Line != 1 || at < 0 || !bytes.HasPrefix(data[at:], []byte(word)) {
			t.Errorf("PosInContent(%d) (%q) = %v, which is not where the file has it", off, word, got)
		}
	}
}
