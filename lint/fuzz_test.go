package lint

import (
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/schema"
)

// FuzzLint runs every rule, under each engine, on a three-entry book made of
// fuzzed keywords and contents: no keyword or text may make a rule panic
// (a keyword holding a line break once did, in keyword-in-words), and the
// findings are the same on a second run.
func FuzzLint(f *testing.F) {
	f.Add("Ai", "ab\ncd", "Zoe waits.", "Ab cd, the ferryman said.", uint8(0))
	f.Add("Nia", "人", "Nia has insomnia; the maniac next door.", "他们说人神住在山上。", uint8(1))
	f.Add("cella", "/\\bai\\b/i", "Barrels line the cellar walls.", "{{char}} and {{user}} ΌΣΟΣ ς", uint8(2))
	f.Add("Straße", "e\u0301", "STRASSE strasse Straße", "café cafe\u0301 ﬁne", uint8(7))
	engines := []string{"lore", "sillytavern", "yumina"}
	f.Fuzz(func(t *testing.T, k1, k2, c1, c2 string, flags uint8) {
		if len(k1)+len(k2)+len(c1)+len(c2) > 2000 {
			t.Skip()
		}
		entry := func(id string, keys []string, content string, bit uint8) map[string]any {
			e := map[string]any{"id": id, "section": "chat-history", "keywords": keys, "content": content}
			if flags&bit != 0 {
				e["matchWholeWords"] = true
			}
			return e
		}
		second := entry("second", []string{k2}, c2, 2)
		if flags&8 != 0 {
			second["secondaryKeywords"] = []string{k1}
		}
		third := entry("third", []string{k1 + k2}, c1+" "+c2, 4)
		if flags&16 != 0 {
			third["preventRecursion"] = true
		}
		doc := map[string]any{
			"name":     "fuzz",
			"settings": map[string]any{"engine": engines[int(flags>>5)%len(engines)]},
			"entries":  []any{entry("first", []string{k1, k2}, c1, 1), second, third},
		}
		data, err := yaml.Marshal(doc)
		if err != nil {
			t.Skip()
		}
		d, err := schema.ParseDoc("fuzz.yaml", data)
		if err != nil {
			t.Skip()
		}
		book, ds, err := schema.LoadDoc(d)
		if err != nil || book == nil {
			t.Skip()
		}
		first := format(runWith(book, nil, nil, ds))
		if again := format(runWith(book, nil, nil, ds)); again != first {
			t.Fatalf("two runs differ:\n%s\n---\n%s", first, again)
		}
	})
}
