package lore

import (
	"fmt"
	"math/rand"
	"syscall"
	"testing"

	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
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
			in := &render.Input{Book: book, Transcript: benchChat(r, words, c.messages), Settings: s, Counter: counter}
			out, _ := output.NewOutput("json", output.OutputOptions{})
			var res *render.Result
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

// BenchmarkHTMLOutput writes the page for a render of 10000 entries and 2000
// messages with a 128k context (hundreds of messages and cards in the prompt,
// thousands of entries in the "not in the prompt" table). Doubling the
// entries should at most about double the time.
func BenchmarkHTMLOutput(b *testing.B) {
	for _, n := range []int{10000, 20000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewSource(1))
			book, words := benchBook(r, n)
			s := schema.DefaultSettings()
			s.ContextTokens = 128000
			counter, err := tokenize.Get(tokenize.O200kBase)
			if err != nil {
				b.Fatal(err)
			}
			res, err := Render(&render.Input{Book: book, Transcript: benchChat(r, words, 2000), Settings: s, Counter: counter})
			if err != nil {
				b.Fatal(err)
			}
			html, _ := output.NewOutput("html", output.OutputOptions{})
			var w countWriter
			for b.Loop() {
				w = 0
				if err := html.Write(&w, res); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(w), "bytes")
		})
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
