package tokenize

import "unicode/utf8"

// bpe counts with one of OpenAI's byte-pair encodings (encoding.go), exactly
// as tiktoken does, offline: the ranks are compiled into the binary and read
// in place, so the first count costs no more than the next.
type bpe struct {
	name  string
	enc   *encoding
	words *wordCache
}

func newBPE(name string) *cached {
	return newCached(&bpe{name: name, enc: newEncoding(name), words: newWordCache()})
}

func (b *bpe) Name() string { return b.name }

// Count sums the counts of s's words (pieces.go), each counted once per
// process; a short or invalid text is counted whole.
func (b *bpe) Count(s string) int {
	if len(s) < splitFrom || !utf8.ValidString(s) {
		return b.countWhole(s)
	}
	n := 0
	eachWord(s, func(w string) { n += b.words.count(w, b.countWhole) })
	return n
}

func (b *bpe) countWhole(s string) int {
	n, err := b.enc.count(s)
	if err != nil {
		// Only the split expression can fail (a timeout, which is not
		// set). Fall back to the estimate rather than report 0 tokens for
		// text that is there.
		return chars4{}.Count(s)
	}
	return n
}

// Truncate keeps the first n tokens. The tokens of valid UTF-8 concatenate to
// the input exactly, so the kept text is measured in bytes of s and is a
// prefix of s by construction. A token can end
// inside a multi-byte character (byte-level BPE); then tokens are dropped until
// the cut falls on a character boundary.
//
// Cost: one encode of s plus a count of the kept prefix — Truncate is called
// once per render, on the one Required piece that is cut.
func (b *bpe) Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	toks, err := b.enc.tokenLens(s)
	if err != nil {
		return chars4{}.Truncate(s, n)
	}
	if len(toks) <= n {
		return s
	}
	total := 0
	for _, t := range toks {
		total += t
	}
	if total != len(s) {
		// Invalid UTF-8: the split regexp sees U+FFFD where s has a bad
		// byte, so token lengths no longer measure s. Search instead.
		return searchPrefix(s, n, b.Count)
	}
	ends := make([]int, 0, n)
	end := 0
	for _, t := range toks[:n] {
		end += t
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

// searchPrefix is the longest prefix of s, cut at a character start, whose
// count is at most n, by binary search over the cut positions (a prefix never
// counts more tokens than a longer one, near enough for a fallback).
func searchPrefix(s string, n int, count func(string) int) string {
	cuts := []int{0}
	for i := 1; i < len(s); i++ {
		if utf8.RuneStart(s[i]) {
			cuts = append(cuts, i)
		}
	}
	cuts = append(cuts, len(s))
	lo, hi := 0, len(cuts)-1 // cuts[lo] fits (the empty prefix always does)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if count(s[:cuts[mid]]) <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return s[:cuts[lo]]
}
