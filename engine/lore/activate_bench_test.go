package lore

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// benchVocabulary makes n distinct pseudo-words, deterministically.
func benchVocabulary(r *rand.Rand, n int) []string {
	parts := strings.Fields("ka lo mi ren sta gor vel tha bri dun esk ol ar in wyn qua zel")
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var b strings.Builder
		for j := 2 + r.Intn(3); j > 0; j-- {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

var benchCommon = strings.Fields("the a and of to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who its now find long down day did get come made may part")

// benchBook generates a lorebook of n chat-history entries with three
// keywords each (half with matchWholeWords, a fifth with secondary
// keywords), content of about 40 words of which every tenth entry names
// another entry's keyword (recursion), plus a few always-sent entries.
func benchBook(r *rand.Rand, n int) (*schema.Lorebook, []string) {
	words := benchVocabulary(r, 3*n)
	book := &schema.Lorebook{}
	book.Manifest.Name = "Bench"
	for i := 0; i < n; i++ {
		e := actEntry(fmt.Sprintf("entry-%05d", i), schema.SectionChatHistory, withKeys(words[3*i], words[3*i+1], words[3*i+2]))
		e.Position = i % 10
		e.MatchWholeWords = i%2 == 0
		if i%5 == 0 {
			e.SecondaryKeywords = actKW(benchCommon[r.Intn(len(benchCommon))], benchCommon[r.Intn(len(benchCommon))])
			e.SecondaryKeywordLogic = []string{schema.AndAny, schema.NotAll, schema.NotAny, schema.AndAll}[i%4]
		}
		var c strings.Builder
		for j := 0; j < 40; j++ {
			c.WriteString(benchCommon[r.Intn(len(benchCommon))])
			c.WriteByte(' ')
		}
		if i%10 == 0 {
			c.WriteString(words[r.Intn(len(words))])
		}
		e.Content = c.String()
		book.Entries = append(book.Entries, e)
	}
	for i := 0; i < 20; i++ {
		book.Entries = append(book.Entries, actEntry(fmt.Sprintf("preset-%02d", i), schema.SectionSystemPresets, withContent("rules")))
	}
	return book, words
}

// benchChat generates m messages of 50 words; one word in 40 is a keyword.
func benchChat(r *rand.Rand, words []string, m int) *schema.Transcript {
	tr := &schema.Transcript{}
	for i := 0; i < m; i++ {
		var b strings.Builder
		for j := 0; j < 50; j++ {
			if r.Intn(40) == 0 {
				w := words[r.Intn(len(words))]
				if r.Intn(2) == 0 {
					w = strings.ToUpper(w[:1]) + w[1:]
				}
				b.WriteString(w)
			} else {
				b.WriteString(benchCommon[r.Intn(len(benchCommon))])
			}
			b.WriteString(" ")
		}
		tr.Messages = append(tr.Messages, schema.Message{Role: []string{"user", "assistant"}[i%2], Content: b.String()})
	}
	return tr
}

// BenchmarkActivate activates generated lorebooks against generated chats,
// scanning every message (window = messages), so that doubling the entries
// or the messages can be compared.
func BenchmarkActivate(b *testing.B) {
	for _, c := range []struct{ entries, messages int }{{10000, 2000}, {20000, 2000}, {10000, 4000}} {
		b.Run(fmt.Sprintf("entries=%d/messages=%d", c.entries, c.messages), func(b *testing.B) {
			r := rand.New(rand.NewSource(1))
			book, words := benchBook(r, c.entries)
			in := &render.Input{Book: book, Transcript: benchChat(r, words, c.messages), Settings: schema.DefaultSettings()}
			var act *Activation
			cpu0 := processCPU()
			for b.Loop() {
				// A fresh Input each time: the keyword index is rebuilt, as
				// in a real render (which shares it between its two
				// activations).
				fresh := *in
				act = Activate(&fresh, c.messages)
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			rec := 0
			for _, x := range act.Active {
				if x.Level > 0 {
					rec++
				}
			}
			b.ReportMetric(float64(len(act.Active)), "active")
			b.ReportMetric(float64(rec), "recursive")
		})
	}
}
