package sillytavern

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// stShapes are SillyTavern books of n entries in the shapes that could make
// a scan quadratic, each with a chat for it.
var stShapes = map[string]func(n int) (map[string]any, []schema.Message){
	// Distinct keys, contents that name other entries' keys, some
	// constants, secondary keys, probabilities and groups; a 60-message
	// chat naming many keys.
	"distinct": func(n int) (map[string]any, []schema.Message) {
		r := rand.New(rand.NewSource(1))
		word := func() string { return fmt.Sprintf("w%d", r.Intn(n)) }
		entries := map[string]any{}
		for i := range n {
			e := map[string]any{"uid": i, "key": []any{fmt.Sprintf("w%d", i), fmt.Sprintf("alias%d", i)},
				"content": fmt.Sprintf("Entry %d is about %s and %s.", i, word(), word()), "order": r.Intn(200)}
			switch i % 20 {
			case 0:
				e["constant"] = true
			case 1, 2:
				e["keysecondary"] = []any{word(), word()}
				e["selectiveLogic"] = i % 4
			case 3:
				e["probability"] = 40
			case 4:
				e["group"] = fmt.Sprintf("g%d", i%50)
			case 5:
				e["position"] = 4
				e["depth"] = i % 5
			}
			entries[fmt.Sprint(i)] = e
		}
		var msgs []schema.Message
		for i := range 60 {
			text := ""
			for range 12 {
				text += word() + " and "
			}
			msgs = append(msgs, schema.Message{Role: []string{"user", "assistant"}[i%2], Content: text})
		}
		return map[string]any{"entries": entries}, msgs
	},
	// Every entry has the key "tavern" and its content names it.
	"shared": func(n int) (map[string]any, []schema.Message) {
		entries := map[string]any{}
		for i := range n {
			entries[fmt.Sprint(i)] = map[string]any{"uid": i, "key": []any{"tavern", fmt.Sprintf("k%d", i)},
				"content": fmt.Sprintf("The tavern number %d.", i)}
		}
		return map[string]any{"entries": entries}, []schema.Message{{Role: "user", Content: "I enter the tavern."}}
	},
	// A recursion chain: each entry's content is the next one's key.
	"chain": func(n int) (map[string]any, []schema.Message) {
		entries := map[string]any{}
		for i := range n {
			entries[fmt.Sprint(i)] = map[string]any{"uid": i, "key": []any{fmt.Sprintf("k%d", i)},
				"content": fmt.Sprintf("k%d", i+1)}
		}
		return map[string]any{"entries": entries}, []schema.Message{{Role: "user", Content: "k0"}}
	},
	// One inclusion group of n members sharing a key, with weights.
	"group": func(n int) (map[string]any, []schema.Message) {
		entries := map[string]any{}
		for i := range n {
			entries[fmt.Sprint(i)] = map[string]any{"uid": i, "key": []any{"tavern"}, "group": "inn",
				"groupWeight": 1 + i%7, "content": fmt.Sprintf("Inn %d.", i)}
		}
		return map[string]any{"entries": entries}, []schema.Message{{Role: "user", Content: "the tavern"}}
	},
}

func shapeInput(tb testing.TB, shape string, n int, settings map[string]any) *render.Input {
	tb.Helper()
	book, msgs := stShapes[shape](n)
	data, err := json.Marshal(book)
	if err != nil {
		tb.Fatal(err)
	}
	lb, _, err := formats.Convert(shape+".json", data)
	if err != nil {
		tb.Fatal(err)
	}
	counter, err := tokenize.Get(tokenize.O200kBase)
	if err != nil {
		tb.Fatal(err)
	}
	return &render.Input{Book: lb, Transcript: &schema.Transcript{Messages: msgs}, Settings: schema.DefaultSettings(),
		Counter: counter, EngineSettings: settings}
}

// BenchmarkRender renders a 10,000-entry SillyTavern book read directly
// with SillyTavern's shipped settings, against lore's own engine on the same
// book and chat (the target: within 2×).
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{10000, 20000} {
		in := shapeInput(b, "distinct", n, nil)
		b.Run(fmt.Sprintf("engine=sillytavern/entries=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := New().Render(in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("engine=lore/entries=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := lore.Render(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRuns is `lore render --runs 1000` on a 200-entry book: 1000
// renders with consecutive seeds (the target: under 2 s).
func BenchmarkRuns(b *testing.B) {
	in := shapeInput(b, "distinct", 200, nil)
	eng := New()
	for b.Loop() {
		for k := range 1000 {
			local := *in
			local.Seed = int64(k)
			if _, err := eng.Render(&local); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestRenderScalesLinearly renders each shape at n and 2n entries, with a
// budget that never stops it, and checks that allocations at most about
// double (deterministic, unlike time): a scan that went back over every
// entry for each recursion pass, or recounted the recursion text, would
// grow them fourfold.
func TestRenderScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("renders books of thousands of entries")
	}
	settings := map[string]any{"budget": 100.0, "maxContext": 1e9}
	for _, shape := range []string{"distinct", "shared", "chain", "group"} {
		t.Run(shape, func(t *testing.T) {
			allocs := func(n int) float64 {
				in := shapeInput(t, shape, n, settings)
				in.Counter, _ = tokenize.Get(tokenize.Chars4)
				return testing.AllocsPerRun(2, func() {
					if _, err := New().Render(in); err != nil {
						t.Fatal(err)
					}
				})
			}
			a, b := allocs(1000), allocs(2000)
			if b > 2.2*a {
				t.Errorf("allocations grow faster than the book: %.0f at 1000 entries, %.0f at 2000 (%.2f×)", a, b, b/a)
			}
		})
	}
}
