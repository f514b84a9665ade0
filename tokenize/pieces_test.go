package tokenize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/internal/testcorpus"
)

// sameAsWhole fails t when counting s word by word differs from counting
// it whole, for both BPE tokenizers.
func sameAsWhole(t testing.TB, s string) {
	t.Helper()
	for _, name := range []string{O200kBase, Cl100kBase} {
		b := mustGet(t, name).(*cached).inner.(*bpe)
		if got, want := b.Count(s), b.countWhole(s); got != want {
			t.Fatalf("%s: %q counts %d word by word, %d whole", name, Shorten(s), got, want)
		}
	}
}

// Shorten keeps failure messages readable.
func Shorten(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// TestWordsConcatenate: the words of a text are the text.
func TestWordsConcatenate(t *testing.T) {
	for _, s := range []string{"", "a", "a b", "  a  b  ", "hello world, again.\nnew  line", "x \u3000y\u00a0z", "日本 語 です"} {
		var b strings.Builder
		n := 0
		eachWord(s, func(w string) { b.WriteString(w); n++ })
		if b.String() != s {
			t.Errorf("%q: words give %q", s, b.String())
		}
		if s == "hello world, again.\nnew  line" && n != 3 {
			t.Errorf("%q: %d words, want 3 (hello, ␠world,, ␠again.⏎new␠␠line: no cut next to another space)", s, n)
		}
	}
}

// TestWordCountsMatchWhole: word-by-word counts equal whole counts on
// texts made to probe the split expressions' edges, on every corpus and
// fixture file, and on the generated books of both shapes.
func TestWordCountsMatchWhole(t *testing.T) {
	edges := []string{
		"hello world  and   more spaces here",
		"it's what they're doing, isn't it? I'LL see 'S 's",
		"numbers 1234 5678 12 3 and 1,000,000 or 3.14 done",
		"punct !!! ??? ... --- /// a/b c / d ./ ,\n, \n \r\n end",
		"tabs\tand\ttabs \t mixed \t\t here and there",
		"日本語のテキスト です。 漢字 かな カナ 한국어 텍스트 ok",
		"combining e\u0301 \u0301x a\u0300b marks and ZWJ 👩\u200d👩 emoji 🎉 🎉🎉",
		"nbsp\u00a0here ideographic\u3000space thin\u2009space line\u2028sep",
		"{{char}} says <b>hello</b> {{user}}: \"quoted\" 'single' (paren) [x]",
		"CamelCase HTTPServer iPhone ABCdef ÀÉÎ œuvre straße ǅungla",
	}
	for _, s := range edges {
		sameAsWhole(t, s)
	}
	for _, text := range sampleTexts(t) {
		// Whole files and each line: both shapes of text a render counts.
		sameAsWhole(t, text)
		for _, line := range strings.Split(text, "\n") {
			sameAsWhole(t, line)
		}
	}
}

// sampleTexts are the texts the tokenizer's tests hold to their reference:
// every fixture and corpus file under 1 MiB, bookgen's YAML and CJK books of
// 300 entries and a 300-message chat.
func sampleTexts(t *testing.T) []string {
	var texts []string
	for _, root := range []string{"../fixtures", testcorpus.Find(t)} {
		if root == "" {
			continue
		}
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil && len(data) <= 1<<20 {
				texts = append(texts, string(data))
			}
			return nil
		})
	}
	for _, s := range []bookgen.Shape{bookgen.YAML, bookgen.CJK} {
		data, err := bookgen.Bytes(s, 300)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
	}
	return append(texts, string(bookgen.HardChat(300, 50)))
}

// FuzzWordCounts: word-by-word counts equal whole counts on any text.
func FuzzWordCounts(f *testing.F) {
	for _, s := range []string{"hello world", "a  b", "x, y", "日本 語", "it's 'S ok", "1 2 3", ". /\n x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameAsWhole(t, s)
	})
}
