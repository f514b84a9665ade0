package tokenize

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/lorekit/lore/tokenize/internal/genranks/vocab"
)

// TestRankTablesMatchTiktoken: the embedded tables are what genranks makes
// of tiktoken-go's vocabularies today (go run ./tokenize/internal/genranks
// after a tokenizer upgrade).
func TestRankTablesMatchTiktoken(t *testing.T) {
	for _, name := range vocab.Names {
		want, err := vocab.Table(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("internal", "ranks", name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("internal/ranks/%s.bin is stale: run go run ./tokenize/internal/genranks", name)
		}
	}
}

// sameAsTiktoken fails t when lore's encoding of s differs from
// tiktoken-go's: the count, and the tokens' lengths (what Truncate cuts by).
func sameAsTiktoken(t testing.TB, s string) {
	t.Helper()
	for _, name := range []string{O200kBase, Cl100kBase} {
		ref, err := tokenizer.Get(tokenizer.Encoding(name))
		if err != nil {
			t.Fatal(err)
		}
		_, toks, err := ref.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		enc := mustGet(t, name).(*cached).inner.(*bpe).enc
		n, err := enc.count(s)
		if err != nil || n != len(toks) {
			t.Fatalf("%s: %q counts %d (%v), tiktoken-go %d", name, Shorten(s), n, err, len(toks))
		}
		lens, err := enc.tokenLens(s)
		if err != nil || len(lens) != len(toks) {
			t.Fatalf("%s: %q has %d token lengths (%v), tiktoken-go %d tokens", name, Shorten(s), len(lens), err, len(toks))
		}
		for i, tok := range toks {
			if lens[i] != len(tok) {
				t.Fatalf("%s: %q: token %d is %d bytes, tiktoken-go's %q %d", name, Shorten(s), i, lens[i], tok, len(tok))
			}
		}
	}
}

// TestEncodingMatchesTiktoken compares lore's byte-pair encoding with
// tiktoken-go's on the edge texts, every fixture and corpus file, generated
// books and chats of both shapes, and long pieces (text without spaces,
// which merge through the heap) of every kind.
func TestEncodingMatchesTiktoken(t *testing.T) {
	texts := []string{
		"", "a", " ", "\n\n", "hello world", "'RE", "supercalifragilistic",
		"it's what they're doing, isn't it? I'LL see 'S 's",
		"日本語のテキスト です。 漢字 かな カナ 한국어 텍스트 ok",
		"combining e\u0301 \u0301x a\u0300b marks and ZWJ 👩\u200d👩 emoji 🎉 🎉🎉",
		"\xff\xfeab \xc3 broken \xe6\x97 utf-8 \x80",
		strings.Repeat("a", 5000),
		strings.Repeat("ab", 3000),
		strings.Repeat("桜の宿は鴨川のほとり、", 400),
		strings.Repeat("Zm9vYmFyYmF6cXV4", 300),
		strings.Repeat("1234567890", 200),
		strings.Repeat("!?", 1000),
		strings.Repeat(" ", 300) + "x" + strings.Repeat("\n", 300),
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aeiouzqxAEZ日本語のかなカナ한국 \n\t.,'!🎉\u0301é1")
	for range 200 {
		n := 1 + r.IntN(400)
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alphabet[r.IntN(len(alphabet))]
		}
		texts = append(texts, string(rs))
	}
	for _, s := range texts {
		sameAsTiktoken(t, s)
	}
	for _, text := range sampleTexts(t) {
		sameAsTiktoken(t, text)
	}
}

// FuzzEncoding: lore's byte-pair encoding equals tiktoken-go's on any text.
func FuzzEncoding(f *testing.F) {
	for _, s := range []string{"hello world", "日本語のテキスト", "\xff\xfe", strings.Repeat("ab", 60), "'S 's 1234"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4000 {
			t.Skip()
		}
		sameAsTiktoken(t, s)
	})
}
