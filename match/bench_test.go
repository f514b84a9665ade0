package match

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// benchWords makes n distinct pseudo-words, deterministically.
func benchWords(r *rand.Rand, n int) []string {
	const syll = "ka lo mi ren sta gor vel tha bri dun esk ol ar in wyn"
	parts := strings.Fields(syll)
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		k := 2 + r.Intn(3)
		var b strings.Builder
		for j := 0; j < k; j++ {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// benchTranscript makes messages of about 60 words, mixing common English words
// with some of the keywords (so there are hits to check) and a little Unicode.
func benchTranscript(r *rand.Rand, kws []string, n int) []string {
	common := strings.Fields("the a and of to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part Café ＴＡＶＥＲＮ")
	msgs := make([]string, n)
	for i := range msgs {
		var b strings.Builder
		for j := 0; j < 60; j++ {
			if r.Intn(30) == 0 {
				b.WriteString(strings.ToUpper(kws[r.Intn(len(kws))][:1]) + kws[r.Intn(len(kws))][1:])
			} else {
				b.WriteString(common[r.Intn(len(common))])
			}
			b.WriteByte(' ')
		}
		msgs[i] = b.String()
	}
	return msgs
}

func benchFind(b *testing.B, nKeywords, nMessages int) {
	r := rand.New(rand.NewSource(1))
	kws := benchWords(r, nKeywords)
	ps := make([]Pattern, len(kws))
	for i, k := range kws {
		ps[i] = Pattern{Text: k, WholeWords: i%2 == 0, Owner: i / 3}
	}
	msgs := benchTranscript(r, kws, nMessages)
	m, errs := Compile(ps)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	b.ResetTimer()
	hits := 0
	for i := 0; i < b.N; i++ {
		hits = 0
		for _, msg := range msgs {
			hits += len(m.Find(msg))
		}
	}
	b.ReportMetric(float64(hits), "hits")
}

func BenchmarkCompile10k(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	kws := benchWords(r, 10000)
	ps := make([]Pattern, len(kws))
	for i, k := range kws {
		ps[i] = Pattern{Text: k}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Compile(ps)
	}
}

func BenchmarkFind(b *testing.B) {
	for _, c := range []struct{ kw, msgs int }{{10000, 2000}, {20000, 2000}, {10000, 4000}} {
		b.Run(fmt.Sprintf("keywords=%d/messages=%d", c.kw, c.msgs), func(b *testing.B) { benchFind(b, c.kw, c.msgs) })
	}
}

// BenchmarkOccurrencesBook scans 10,000 contents shaped like bookgen's
// (mostly ASCII, an "Élan Keep" or a "霧の谷" in some) for 20,000
// keywords, as lint's trigger graph does.
func BenchmarkOccurrencesBook(b *testing.B) {
	const n = 10000
	places := []string{"Millbrook", "Port Vell", "the Whisperwood", "Karth River", "Ashfall", "Élan Keep", "霧の谷", "Dunmere"}
	var ps []Pattern
	texts := make([]string, n)
	for i := range n {
		ps = append(ps, Pattern{Text: fmt.Sprintf("place%d", i), WholeWords: i%4 == 0, Owner: i}, Pattern{Text: fmt.Sprintf("alias%d", i), Owner: i})
		texts[i] = fmt.Sprintf("The town of place%d has %d souls and lies by %s. Travellers say the road to place%d is safe by day.\n"+
			"Its market sells barrels, rope and \"river glass\"; the inn keeps a room for %s. Old songs call it the %dth gate.",
			i, 100+i*7%900, places[i%len(places)], (i*7+1)%n, places[(i+3)%len(places)], i)
	}
	m, errs := Compile(ps)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	m.Occurrences("warm", func(Occurrence) {})
	b.ReportAllocs()
	b.ResetTimer()
	hits := 0
	for b.Loop() {
		hits = 0
		for _, t := range texts {
			m.Occurrences(t, func(Occurrence) { hits++ })
		}
	}
	b.ReportMetric(float64(hits), "hits")
}
