package tokenize

import (
	"hash/maphash"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A BPE count is the sum of the counts of the pieces its split expression
// cuts the text into, and prose repeats its words: a lorebook of 10,000
// entries has some tens of thousands of distinct words in some millions of
// places. So a text is cut into words, each counted once per process and
// remembered in a bounded table.
//
// The cut must fall where the split expressions (o200k_base's and
// cl100k_base's) cut too, or the counts would change. Both cut before a
// space (U+0020) that follows a character other than white space: no
// alternative of either expression runs on from such a character into a
// space (letters, digits and the optional prefix before letters stop at it;
// punctuation runs on only into CR, LF and '/'; the white-space alternatives
// do not start at it), and neither looks behind, so what follows the space
// is split as it would be on its own. A test compares the sums with whole
// counts on the corpus, generated books and a fuzz target.

// wordCacheShards and wordCacheCap bound the table: at most
// wordCacheShards×wordCacheCap words of at most maxCachedWord bytes (some
// 30 MB at worst). Once a shard is full, new words are counted and not
// remembered; counts are the same either way.
const (
	wordCacheShards = 64
	wordCacheCap    = 4096
	maxCachedWord   = 64
	// splitFrom is the shortest text worth cutting: a short one costs one
	// expression run either way.
	splitFrom = 24
)

type wordShard struct {
	mu sync.RWMutex
	m  map[string]int32
}

type wordCache struct {
	seed   maphash.Seed
	shards [wordCacheShards]wordShard
}

func newWordCache() *wordCache {
	w := &wordCache{seed: maphash.MakeSeed()}
	for i := range w.shards {
		w.shards[i].m = map[string]int32{}
	}
	return w
}

// count returns the count of word, from the table or from count.
func (w *wordCache) count(word string, count func(string) int) int {
	if len(word) > maxCachedWord {
		return count(word)
	}
	sh := &w.shards[maphash.String(w.seed, word)%wordCacheShards]
	sh.mu.RLock()
	n, ok := sh.m[word]
	sh.mu.RUnlock()
	if ok {
		return int(n)
	}
	c := count(word)
	sh.mu.Lock()
	if len(sh.m) < wordCacheCap {
		sh.m[strings.Clone(word)] = int32(c)
	}
	sh.mu.Unlock()
	return c
}

// eachWord calls fn with the words of s (valid UTF-8), cut before every
// space that follows a character other than white space and is followed by
// one; the words concatenate to s.
func eachWord(s string, fn func(string)) {
	start := 0
	for i := 1; i < len(s)-1; {
		j := strings.IndexByte(s[i:len(s)-1], ' ')
		if j < 0 {
			break
		}
		i += j
		prev, _ := utf8.DecodeLastRuneInString(s[:i])
		next, _ := utf8.DecodeRuneInString(s[i+1:])
		if !isSpace(prev) && !isSpace(next) && i > start {
			fn(s[start:i])
			start = i
		}
		i++
	}
	fn(s[start:])
}

// isSpace is what either split expression's \s might take for white space
// (Unicode's White_Space and every separator), or a character that is not
// one (U+FFFD stands for invalid input, which is never cut).
func isSpace(r rune) bool {
	return r == utf8.RuneError || unicode.IsSpace(r) || unicode.Is(unicode.Z, r) || r == '\u200b' || r == '\ufeff'
}
