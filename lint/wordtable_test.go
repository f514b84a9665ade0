package lint

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
)

// TestWordTable counts words as a map does, across the table's growth, and
// keeps them in the order they first appear.
func TestWordTable(t *testing.T) {
	tab := newWordTable()
	want := map[string]int{}
	var order []string
	for i := range 20000 {
		w := fmt.Sprintf("w%d", (i*7919)%5003)
		if i%2 == 0 {
			tab.add(w)
		} else {
			tab.addBytesHashed([]byte(w), wordHash(w))
		}
		if want[w] == 0 {
			order = append(order, w)
		}
		want[w]++
	}
	if len(tab.list) != len(order) {
		t.Fatalf("%d distinct words, want %d", len(tab.list), len(order))
	}
	for i, w := range tab.list {
		if w != order[i] {
			t.Fatalf("word %d is %q, want %q (first-appearance order)", i, w, order[i])
		}
		if tab.count[i] != want[w] {
			t.Errorf("%q counted %d times, want %d", w, tab.count[i], want[w])
		}
	}
	if 10*len(tab.list) > 7*len(tab.slots) {
		t.Errorf("%d words in %d slots: more than 70 %% full", len(tab.list), len(tab.slots))
	}
}

// TestContentWordsMatchesReference holds contentWords' one-pass reading (the
// hash taken while reading, the ASCII lowering, the switch to rune-by-rune
// reading inside a word) to the plain one: split at notWordRune, lower with
// strings.ToLower, count in a map. The contents mix upper and lower case,
// accents, CJK, kana and words at a content's end; then come contents drawn
// at random from such pieces.
func TestContentWordsMatchesReference(t *testing.T) {
	contents := []string{
		"The town of Place0 has 100 souls; THE road to place1 is safe.",
		"Élan vital, ÉLAN, élan — naïve Straße STRASSE ǅemal",
		"霧の谷に住むKitsuneは、xml注释とカタカナ。the end",
		"",
		"trailing Word",
		"x\tY\nz_Z-ab'cd 'quoted' can't DON'T",
		"İstanbul ΣΊΣΥΦΟΣ Ωmega ωmega",
	}
	compareContentWords(t, contents)
	pieces := []string{"a", "B", "z", "Q", "0", " ", ".", "'", "-", "_", "\n", "é", "É", "ß", "霧", "の", "カ", "。", "—", "Σ", "ǅ", "İ", "\u00a0", "\u200b"}
	rng := rand.New(rand.NewPCG(1, 2))
	contents = contents[:0]
	for range 500 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		contents = append(contents, b.String())
	}
	compareContentWords(t, contents)
}

func compareContentWords(t *testing.T, contents []string) {
	t.Helper()
	book := &schema.Lorebook{Format: "lore"}
	for i, s := range contents {
		book.Entries = append(book.Entries, entry(fmt.Sprint("e", i), func(e *schema.Entry) { e.Content = s }))
	}
	book.Entries = append(book.Entries, entry("off", func(e *schema.Entry) { e.Content = "Disabled words"; e.Enabled = false }))
	c := &Context{Book: book, shared: &shared{}, Engine: loreEngine(settings.Source{})}
	got := c.contentWords()

	count := map[string]int{}
	var order []string
	latin, han, kana := 0, 0, 0
	for _, e := range book.Entries {
		if !e.Enabled {
			continue
		}
		for _, w := range strings.FieldsFunc(e.Content, c.notWordRune) {
			w = strings.ToLower(w)
			if count[w] == 0 {
				order = append(order, w)
			}
			count[w]++
		}
		for _, r := range e.Content {
			switch {
			case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
				latin++
			case unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
				kana++
			case unicode.Is(unicode.Han, r):
				han++
			}
		}
	}
	if !slices.Equal(got.list, order) {
		t.Fatalf("words %q,\nwant %q", got.list, order)
	}
	for i, w := range got.list {
		if got.count[i] != count[w] {
			t.Errorf("%q counted %d times, want %d", w, got.count[i], count[w])
		}
	}
	if got.latin != latin || got.han != han || got.kana != kana {
		t.Errorf("latin, han, kana = %d, %d, %d, want %d, %d, %d", got.latin, got.han, got.kana, latin, han, kana)
	}
}

// TestTopOf holds the language table to its definition: a word has a
// spaced language's bit exactly when it is among that list's first
// topWords distinct words, read straight from the embedded file.
func TestTopOf(t *testing.T) {
	top := topOf()
	for i, l := range languages {
		data, err := wordFiles.ReadFile("words/" + l.lang + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		first := map[string]bool{}
		spaced := loadWords()[i].spaced
		for _, w := range strings.Split(string(data), "\n") {
			if spaced && len(first) < topWords && w != "" && !strings.HasPrefix(w, "#") {
				first[w] = true
			}
		}
		if spaced && len(first) != topWords {
			t.Errorf("%s: %d first words, want %d", l.lang, len(first), topWords)
		}
		for w, set := range top {
			if has := set&(1<<i) != 0; has != first[w] {
				t.Errorf("%s: topOf[%q] has the bit %v, want %v", l.lang, w, has, first[w])
			}
		}
		for w := range first {
			if _, ok := top[w]; !ok {
				t.Errorf("%s: %q is missing from topOf", l.lang, w)
			}
		}
	}
	if top["the"]&1 == 0 {
		t.Error(`"the" is not among English's first words`)
	}
}
