package formats

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"
)

// randomBook writes a random valid lore lorebook (YAML) from seed: every
// entry field lore has, at random values, defaults left out at random, so
// that what the loader records as written varies too.
func randomBook(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	words := []string{"dragon", "Maren", "the Silver Order", "桜", "Élodie", "port vell", "ash", "wolf's eye", "café", "x"}
	word := func() string { return words[r.IntN(len(words))] }
	book := map[string]any{"name": pick("Book", "Eldoria", "Ünïcode book")}
	if r.IntN(2) == 0 {
		book["description"] = "A " + word()
	}
	if r.IntN(3) == 0 {
		book["character"] = pick("Seraphina", "Nova")
	}
	if r.IntN(3) == 0 {
		book["settings"] = map[string]any{"recursionLimit": r.IntN(3) * 2, "contextTokens": 4096 + r.IntN(4)*1024,
			"shares": map[string]any{"cards": 0.25, "history": 0.5, "memory": 0.25}}
	}
	if r.IntN(4) == 0 {
		book["variables"] = []any{map[string]any{"id": "mood", "type": "string", "default": "calm"}}
	}
	if r.IntN(4) == 0 {
		book["folders"] = []any{map[string]any{"id": "places", "name": "Places"}}
	}
	var entries []any
	n := 1 + r.IntN(7)
	for i := 0; i < n; i++ {
		e := map[string]any{"id": fmt.Sprintf("%s-%d", pick("entry", "lore", "rule"), i), "content": pick("Plain text.", "Two\nlines.", "Ends with CRLF\r\nhere.", "@@depth 2\nnot a decorator in lore", "")}
		if r.IntN(3) > 0 {
			e["name"] = word()
		}
		section := pick("chat-history", "chat-history", "system-presets", "examples", "post-history")
		e["section"] = section
		if section == "chat-history" && r.IntN(3) == 0 {
			e["depth"] = r.IntN(6)
		}
		if r.IntN(3) == 0 {
			e["role"] = pick("lore", "character", "plot", "style", "example", "greeting", "system")
		}
		if r.IntN(3) == 0 {
			e["apiRole"] = pick("system", "user", "assistant")
		}
		if r.IntN(2) == 0 {
			e["position"] = r.IntN(300)
		}
		if r.IntN(4) == 0 {
			e["enabled"] = false
		}
		if r.IntN(3) == 0 {
			e["alwaysSend"] = r.IntN(2) == 0
		}
		var kws []any
		for k := r.IntN(4); k > 0; k-- {
			kws = append(kws, pick(word(), "/drag(on|oon)/i", word()))
		}
		if kws != nil {
			e["keywords"] = kws
		}
		if r.IntN(4) == 0 {
			e["secondaryKeywords"] = []any{word()}
			e["secondaryKeywordLogic"] = pick("AND_ANY", "AND_ALL", "NOT_ANY", "NOT_ALL")
		}
		for _, f := range []string{"matchWholeWords", "preventRecursion", "excludeRecursion"} {
			if r.IntN(4) == 0 {
				e[f] = true
			}
		}
		if r.IntN(4) == 0 {
			e["tags"] = []any{pick("place", "person"), "extra"}[:1+r.IntN(2)]
		}
		if book["folders"] != nil && r.IntN(2) == 0 {
			e["folderId"] = "places"
		}
		if book["variables"] != nil && r.IntN(2) == 0 {
			e["conditions"] = []any{map[string]any{"variableId": "mood", "operator": "eq", "value": "angry"}}
		}
		if r.IntN(5) == 0 {
			e["lint"] = map[string]any{"ignore": []any{"keyword-overlap"}, "reason": "on purpose"}
		}
		entries = append(entries, e)
	}
	book["entries"] = entries
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	_ = enc.Encode(book)
	return b.Bytes()
}

// TestRandomBooksReportEveryChange: random lorebooks, exported to every
// format lore writes and read back, change nothing the loss report does not
// name; and the same book always gives the same bytes and the same report.
func TestRandomBooksReportEveryChange(t *testing.T) {
	dir := t.TempDir()
	for seed := uint64(1); seed <= 300; seed++ {
		lb := loadText(t, filepath.Join(dir, fmt.Sprintf("book%d.yaml", seed)), randomBook(seed))
		for _, target := range Targets {
			t.Run(fmt.Sprintf("seed%d/%s", seed, target), func(t *testing.T) {
				assertReported(t, lb, target)
				a, ra, _ := Export(lb, target, nil)
				b, rb, _ := Export(lb, target, nil)
				if !bytes.Equal(a, b) || !bytes.Equal(ra.Text(), rb.Text()) {
					t.Error("two exports of one book differ")
				}
			})
		}
	}
}
