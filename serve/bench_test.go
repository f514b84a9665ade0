package serve

import (
	"testing"

	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/schema"
)

// bigSnapshot is a Snapshot of bookgen's 10,000-entry YAML book, loaded once
// as lore serve loads it on a change, with an empty transcript.
func bigSnapshot(tb testing.TB, n int) *Snapshot {
	tb.Helper()
	p, err := bookgen.Write(tb.TempDir(), bookgen.YAML, n)
	if err != nil {
		tb.Fatal(err)
	}
	book, _, err := schema.Load(p)
	if err != nil {
		tb.Fatal(err)
	}
	return snapshotOf(tb, book, &schema.Transcript{})
}

var bigMessage = []Message{{Role: "user", Content: "We ride for place17 and then on to alias4242 before nightfall."}}

// BenchmarkMessage is one message typed on the page of a 10,000-entry book:
// the render with the message appended and the page's parts, on a book
// already parsed and indexed (what the server does per message; the load
// is once per change on disk).
func BenchmarkMessage(b *testing.B) {
	s := bigSnapshot(b, 10000)
	s.Render("lore", nil) // the first render builds the keyword index
	var v *View
	for b.Loop() {
		v = s.Render("lore", bigMessage)
	}
	if v.Err != "" || len(v.Fired) == 0 {
		b.Fatalf("error %q, fired %v", v.Err, v.Fired)
	}
	b.ReportMetric(float64(len(v.Fired)), "fired")
}
