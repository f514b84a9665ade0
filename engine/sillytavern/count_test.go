package sillytavern

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/lorekit/lore/tokenize"
)

// TestCountText checks that counting a joined text by its parts gives the
// count of the whole, for every tokenizer lore embeds, on texts made of
// words, punctuation, slashes, spaces, line breaks and other scripts.
func TestCountText(t *testing.T) {
	atoms := []string{"the", "King", "dragon's", ".", ",", "!", "...", "/", "//", " ", "  ", "\t", "\n", "\n\n", "\r\n",
		"42", "1999", "café", "Ünter", "念", "制約と誓約", "เน็น", "😀", "\u00a0", "<START>", "{{char}}", "'s", "-", "—", "x/y", "http://a"}
	r := rand.New(rand.NewSource(1))
	for _, name := range tokenize.Names() {
		c, err := tokenize.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for range 3000 {
			var b strings.Builder
			for range 1 + r.Intn(40) {
				b.WriteString(atoms[r.Intn(len(atoms))])
				if r.Intn(3) == 0 {
					b.WriteByte('\n')
				}
			}
			s := b.String()
			if got, want := countText(c, s), c.Count(s); got != want {
				t.Fatalf("%s: %q counts %d by parts, %d whole", name, s, got, want)
			}
		}
	}
}

// The tally's count, kept as pieces come in front, is countText of the
// whole text, whatever the pieces start or end with.
func TestTallyKeepsTheCount(t *testing.T) {
	c, err := tokenize.Get(tokenize.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	starts := []string{"Storm", " space", "/me", "\n", "", "数字", "  x\n\ny"}
	r := rand.New(rand.NewSource(3))
	for n := 0; n < 200; n++ {
		var tl tally
		text := ""
		for k := r.Intn(8); k >= 0; k-- {
			piece := starts[r.Intn(len(starts))] + " and " + starts[r.Intn(len(starts))] + "\n"
			tl.prepend(piece, c)
			text = piece + text
			if got, want := tl.count(c), countText(c, text); got != want {
				t.Fatalf("%q: tally %d, countText %d", text, got, want)
			}
		}
	}
}
