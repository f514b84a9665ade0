package lint

import "strings"

// wordTable counts distinct words: an open-addressing table probed with the
// word's FNV-1a hash. It does for contentWords what a map[string]int did at
// a third of the instructions (a lorebook's content is hundreds of
// thousands of words, of some tens of thousands distinct), and keeps the
// words in the order they first appear.
//
// The words are copied, when new, into chunks of one string each, so the
// comparisons read a few hundred kilobytes of words instead of the first
// place each was found in megabytes of content. (Slots holding a hash and
// an index together made the table twice the size and slower.)
type wordTable struct {
	slots  []int32  // index+1 into list, 0 for an empty slot
	hashes []uint32 // hashes[i]: the hash of list[i]
	list   []string
	count  []int
	arena  strings.Builder
}

// arenaChunk is the size of a chunk of copied words.
const arenaChunk = 64 << 10

func newWordTable() *wordTable { return &wordTable{slots: make([]int32, 1024)} }

// FNV-1a's 32-bit offset basis and prime.
const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// wordHash is a word's FNV-1a hash, the one wordReader takes as it reads:
// of its bytes each with the bit hashed set.
func wordHash(w string) uint32 {
	h := uint32(fnvOffset)
	for i := 0; i < len(w); i++ {
		h ^= uint32(w[i]) | hashed
		h *= fnvPrime
	}
	return h
}

// add counts one occurrence of the word w.
func (t *wordTable) add(w string) { t.addHashed(w, wordHash(w)) }

// addHashed is add for a word whose hash (wordHash) is h.
func (t *wordTable) addHashed(w string, h uint32) {
	if i, ok := find(t, w, h); ok {
		t.count[i]++
	} else {
		t.insertString(i, h, w)
	}
}

// addBytesHashed is addHashed for a word in a buffer.
func (t *wordTable) addBytesHashed(w []byte, h uint32) {
	if i, ok := find(t, w, h); ok {
		t.count[i]++
	} else {
		t.insertBytes(i, h, w)
	}
}

// has says w is one of the words.
func (t *wordTable) has(w string) bool {
	_, ok := find(t, w, wordHash(w))
	return ok
}

// find returns w's index in the list, or the empty slot it goes in; h is
// its hash.
func find[T string | []byte](t *wordTable, w T, h uint32) (int, bool) {
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == 0 {
			return int(i), false
		}
		if j := v - 1; t.hashes[j] == h && t.list[j] == string(w) {
			return int(j), true
		}
	}
}

// insertString puts the new word w, of hash h, in the empty slot i, copied.
func (t *wordTable) insertString(i int, h uint32, w string) {
	t.room(len(w))
	t.arena.WriteString(w)
	t.place(i, h, len(w))
}

// insertBytes is insertString for a word in a buffer.
func (t *wordTable) insertBytes(i int, h uint32, w []byte) {
	t.room(len(w))
	t.arena.Write(w)
	t.place(i, h, len(w))
}

// room starts a new chunk of words when the current one has no room for n
// bytes more: a chunk never grows, so the words taken from it stay where
// they are.
func (t *wordTable) room(n int) {
	if t.arena.Cap()-t.arena.Len() < n {
		t.arena = strings.Builder{}
		t.arena.Grow(max(arenaChunk, n))
	}
}

// place enters the word of n bytes just written to the chunk in slot i.
func (t *wordTable) place(i int, h uint32, n int) {
	s := t.arena.String()
	key := s[len(s)-n:]
	t.slots[i] = int32(len(t.list) + 1)
	t.list = append(t.list, key)
	t.hashes = append(t.hashes, h)
	t.count = append(t.count, 1)
	if 10*len(t.list) > 7*len(t.slots) {
		t.grow()
	}
}

// grow doubles the slots, keeping the table at most 70 % full: the slots
// are what a lookup misses the cache on (a content's words come from all
// over the table), and at half full bookgen's 21,000 distinct words took
// 256 kB of them, at 70 % 128 kB, with linear probing's second look mostly
// in the same cache line.
func (t *wordTable) grow() {
	t.slots = make([]int32, 2*len(t.slots))
	mask := uint32(len(t.slots) - 1)
	for j, h := range t.hashes {
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(j + 1)
	}
}
