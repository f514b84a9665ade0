package tokenize

import (
	"math"

	"github.com/dlclark/regexp2/v2"
	// The codec package registers matchers generated from the split
	// expressions below (regexp2cg); compiling the same expression then
	// gets the generated matcher, which runs several times faster than
	// regexp2's interpreter. Nothing else of it is used at run time.
	_ "github.com/tiktoken-go/tokenizer/codec"

	"github.com/lorekit/lore/tokenize/internal/ranks"
)

// encoding is one byte-pair encoding: OpenAI's split expression cuts a text
// into pieces, and each piece is merged from its bytes by rank (the lowest
// ranked adjacent pair first, the leftmost of equal ones), as tiktoken
// does. The ranks are read in place from tables compiled into the binary
// (internal/ranks), so nothing is decoded when a process starts counting.
type encoding struct {
	split *regexp2.Regexp
	ranks func() *ranks.Table
}

// The split expressions of o200k_base and cl100k_base, as OpenAI publishes
// them (tiktoken's openai_public.py).
const (
	o200kSplit  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	cl100kSplit = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

func newEncoding(name string) *encoding {
	switch name {
	case O200kBase:
		return &encoding{split: regexp2.MustCompile(o200kSplit, regexp2.None), ranks: ranks.O200kBase}
	case Cl100kBase:
		return &encoding{split: regexp2.MustCompile(cl100kSplit, regexp2.None), ranks: ranks.Cl100kBase}
	}
	return nil
}

// pieces calls fn with each piece of s. The expression matches runes: in
// invalid UTF-8 a piece holds U+FFFD where s has a bad byte, as in
// tiktoken-go's ErrorModeNone.
func (e *encoding) pieces(s string, fn func(piece string)) error {
	m, err := e.split.FindStringMatch(s)
	for err == nil && m != nil {
		fn(m.String())
		m, err = e.split.FindNextMatch(m)
	}
	return err
}

// count is the number of tokens of s.
func (e *encoding) count(s string) (int, error) {
	t := e.ranks()
	n := 0
	var buf merger
	err := e.pieces(s, func(p string) { n += buf.count(t, p) })
	return n, err
}

// tokenLens are the byte lengths of the tokens of s, in order.
func (e *encoding) tokenLens(s string) ([]int, error) {
	t := e.ranks()
	var lens []int
	var buf merger
	err := e.pieces(s, func(p string) {
		bounds := buf.merge(t, p)
		for i := 1; i < len(bounds); i++ {
			lens = append(lens, int(bounds[i]-bounds[i-1]))
		}
	})
	return lens, err
}

// noRank is the rank of a pair that is not a token.
const noRank = math.MaxUint32

// merger merges pieces into tokens, reusing its buffers from piece to piece.
type merger struct {
	bounds []int32  // where the parts start, and the piece's end
	pair   []uint32 // pair[i]: the rank of parts i and i+1 merged
	heap   mergeHeap
}

// count is the number of tokens of piece.
func (m *merger) count(t *ranks.Table, piece string) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if _, ok := t.Rank(piece); ok {
		return 1
	}
	return len(m.merge(t, piece)) - 1
}

// scanBelow is the piece length from which merge keeps its candidate pairs
// in a heap rather than finding the lowest by a scan: a scan is quadratic in
// the piece, and pieces are long in text without spaces (CJK prose, a
// base64 blob).
const scanBelow = 96

// merge returns the bounds of piece's tokens: 0, each token's end.
func (m *merger) merge(t *ranks.Table, piece string) []int32 {
	if _, ok := t.Rank(piece); ok || len(piece) <= 1 {
		m.bounds = append(m.bounds[:0], 0, int32(len(piece)))
		return m.bounds[:min(len(piece)+1, 2)]
	}
	if len(piece) >= scanBelow {
		return m.mergeHeap(t, piece)
	}
	b := m.bounds[:0]
	for i := 0; i <= len(piece); i++ {
		b = append(b, int32(i))
	}
	rank := func(i int) uint32 {
		if i+2 >= len(b) {
			return noRank
		}
		if r, ok := t.Rank(piece[b[i]:b[i+2]]); ok {
			return r
		}
		return noRank
	}
	pr := m.pair[:0]
	for i := range b {
		pr = append(pr, rank(i))
	}
	for {
		best, at := uint32(noRank), -1
		for i, r := range pr[:len(b)-1] {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		// Parts at and at+1 become one: the bound between them goes.
		b = append(b[:at+1], b[at+2:]...)
		pr = append(pr[:at+1], pr[at+2:]...)
		pr[at] = rank(at)
		if at > 0 {
			pr[at-1] = rank(at - 1)
		}
	}
	m.bounds, m.pair = b, pr
	return b
}
