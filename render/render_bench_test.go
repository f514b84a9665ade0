package render

import (
	"fmt"
	"math/rand"
	"syscall"
	"testing"

	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// BenchmarkRender runs the whole pipeline (activation twice, assembly twice,
// budget, JSON output) on the activation benchmark's generated lorebooks and
// chats, with a 128k context so the scan window is wide (about 300 messages)
// and hundreds of cards compete for the budget. Doubling the entries or the
// messages should at most about double the time.
func BenchmarkRender(b *testing.B) {
	for _, c := range []struct{ entries, messages int }{{10000, 2000}, {20000, 2000}, {10000, 4000}, {20000, 4000}} {
		b.Run(fmt.Sprintf("entries=%d/messages=%d", c.entries, c.messages), func(b *testing.B) {
			r := rand.New(rand.NewSource(1))
			book, words := benchBook(r, c.entries)
			s := schema.DefaultSettings()
			s.ContextTokens = 128000
			counter, err := tokenize.Get(tokenize.O200kBase)
			if err != nil {
				b.Fatal(err)
			}
			in := &Input{Book: book, Transcript: benchChat(r, words, c.messages), Settings: s, Counter: counter}
			out, _ := NewOutput("json", OutputOptions{})
			var res *Result
			cpu0 := cpuTime()
			for b.Loop() {
				res, err = Render(in)
				if err != nil {
					b.Fatal(err)
				}
				if err := out.Write(discard{}, res); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time per render (user + system, every thread): steadier than
			// wall time when the machine is shared.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(res.Messages)), "messages")
			b.ReportMetric(float64(len(res.Activated)), "entries-in")
		})
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
