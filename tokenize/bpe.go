package tokenize

import (
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// bpe wraps tiktoken-go's byte-pair encoders, whose vocabularies are compiled
// into the binary: counting works offline and matches OpenAI's tiktoken.
type bpe struct {
	name  string
	codec tokenizer.Codec
}

func newBPE(name string) *cached {
	c, err := tokenizer.Get(tokenizer.Encoding(name))
	if err != nil {
		// Only reachable if Get's switch and this wrapper disagree.
		panic("tokenize: " + name + ": " + err.Error())
	}
	return newCached(&bpe{name: name, codec: c})
}

func (b *bpe) Name() string { return b.name }

func (b *bpe) Count(s string) int {
	n, err := b.codec.Count(s)
	if err != nil {
		// The codec runs in ErrorModeNone, where only the split regexp can
		// fail (a timeout, which is not set). Fall back to the estimate
		// rather than report 0 tokens for text that is there.
		return chars4{}.Count(s)
	}
	return n
}

// Truncate keeps the first n tokens. The codec's token strings concatenate to
// the input exactly (ErrorModeNone does not rewrite it), so the kept text is
// measured in bytes of s and is a prefix of s by construction. A token can end
// inside a multi-byte character (byte-level BPE); then tokens are dropped until
// the cut falls on a character boundary.
//
// Cost: one encode of s plus a count of the kept prefix — Truncate is called
// once per render, on the one Required piece that is cut.
func (b *bpe) Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	_, toks, err := b.codec.Encode(s)
	if err != nil {
		return chars4{}.Truncate(s, n)
	}
	if len(toks) <= n {
		return s
	}
	ends := make([]int, 0, n)
	end := 0
	for _, t := range toks[:n] {
		end += len(t)
		ends = append(ends, end)
	}
	// Re-encoding a prefix can, rarely, split its last word differently from
	// the whole text; keep only a cut whose own count is within n.
	for i := len(ends) - 1; i >= 0; i-- {
		cut := ends[i]
		if (cut >= len(s) || utf8.RuneStart(s[cut])) && b.Count(s[:cut]) <= n {
			return s[:cut]
		}
	}
	return ""
}
