package yumina

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// genInput is a generated lorebook of n chat-history entries and a chat of
// m messages, the same for both engines: three made-up keywords per entry
// (half of them whole words, one in nine a regular expression), secondary
// keywords from everyday words on every fifth, content of forty everyday
// words of which every eighth entry's names another entry's keyword
// (recursion), a few always-sent presets; recursion 3 levels and a scan
// window of 300 messages in both engines.
func genInput(n, m int) *render.Input {
	r := rand.New(rand.NewSource(int64(n)))
	common := strings.Fields("the a of and to in is it you that he was for on are with as his they be at one have this from by hot word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find")
	syllables := strings.Fields("bra ken dor vel mi sha lun tor qua zin ark eth")
	word := func(i int) string {
		var b strings.Builder
		for x := i + 1; x > 0; x /= len(syllables) {
			b.WriteString(syllables[x%len(syllables)])
		}
		return b.String() + "x"
	}
	book := &schema.Lorebook{Manifest: schema.Manifest{Name: "Bench"}}
	for i := 0; i < n; i++ {
		kws := []schema.Keyword{{Text: word(3 * i)}, {Text: word(3*i + 1)}, {Text: word(3*i + 2)}}
		if i%9 == 0 {
			kws[2].Text = "/" + word(3*i+2) + "s?/"
		}
		e := &schema.Entry{ID: fmt.Sprintf("e%05d", i), Section: schema.SectionChatHistory, Enabled: true, Keywords: kws,
			Position: i % 7, MatchWholeWords: i%2 == 1, Fields: map[string]schema.Pos{"alwaysSend": {}}}
		if i%5 == 0 {
			e.SecondaryKeywords = []schema.Keyword{{Text: common[r.Intn(len(common))]}, {Text: common[r.Intn(len(common))]}}
			e.SecondaryKeywordLogic = []string{schema.AndAny, schema.NotAll}[i%2]
		}
		var c strings.Builder
		for j := 0; j < 40; j++ {
			c.WriteString(common[r.Intn(len(common))] + " ")
		}
		if i%8 == 0 {
			c.WriteString(word(r.Intn(3 * n)))
		}
		e.Content = c.String()
		book.Entries = append(book.Entries, e)
	}
	for i := 0; i < 10; i++ {
		book.Entries = append(book.Entries, &schema.Entry{ID: fmt.Sprintf("preset-%d", i), Section: schema.SectionSystemPresets,
			Enabled: true, AlwaysSend: true, Content: "Stay in character.", Fields: map[string]schema.Pos{"alwaysSend": {}}})
	}
	chat := &schema.Transcript{}
	for k := 0; k < m; k++ {
		var c strings.Builder
		for j := 0; j < 30; j++ {
			if r.Intn(20) == 0 {
				c.WriteString(strings.ToUpper(word(r.Intn(3*n))) + " ")
			} else {
				c.WriteString(common[r.Intn(len(common))] + " ")
			}
		}
		chat.Messages = append(chat.Messages, schema.Message{Role: []string{"user", "assistant"}[k%2], Content: c.String()})
	}
	s := schema.DefaultSettings()
	s.ContextTokens = 128000
	s.Fields = map[string]schema.Pos{"recursionLimit": {}}
	counter, _ := tokenize.Get(tokenize.O200kBase)
	return &render.Input{Book: book, Transcript: chat, Settings: s, Counter: counter,
		EngineSettings: map[string]any{"lorebookScanDepth": 300.0}}
}

// BenchmarkEngines renders one generated lorebook and chat with each engine
// (activation, assembly, budget and JSON output), so the cost of switching
// engines can be read off: compare engine=yumina with engine=lore at the
// same size.
func BenchmarkEngines(b *testing.B) {
	for _, n := range []int{10000, 20000} {
		in := genInput(n, 2000)
		for _, eng := range []render.Engine{lore.New(), New()} {
			b.Run(fmt.Sprintf("entries=%d/engine=%s", n, eng.Name()), func(b *testing.B) {
				out, _ := output.NewOutput("json", output.OutputOptions{})
				var res *render.Result
				for b.Loop() {
					var err error
					if res, err = eng.Render(in); err != nil {
						b.Fatal(err)
					}
					if err := out.Write(discard{}, res); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(res.Activated)), "entries-in")
			})
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Doubling the entries (and the chat) at most about doubles the
// allocations: nothing in activation, recursion, the budget or placement is
// quadratic. Allocation counts do not depend on the machine's load.
func TestAllocsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("renders large generated lorebooks")
	}
	allocs := func(n int) float64 {
		in := genInput(n, n/5)
		return testing.AllocsPerRun(2, func() {
			if _, err := Render(in); err != nil {
				t.Fatal(err)
			}
		})
	}
	a1, a2 := allocs(2000), allocs(4000)
	if a2 > 2.2*a1 {
		t.Errorf("allocations: %.0f at 2000 entries, %.0f at 4000 (%.2f×, want at most 2.2×)", a1, a2, a2/a1)
	}
	t.Logf("allocations: %.0f at 2000 entries, %.0f at 4000 (%.2f×)", a1, a2, a2/a1)
}
