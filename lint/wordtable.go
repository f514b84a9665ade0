package lint

// wordTable counts distinct words: an open-addressing table of indexes into
// the word list, probed with the word's FNV-1a hash. It does for contentWords
// what a map[string]int did at a third of the instructions (a lorebook's
// content is hundreds of thousands of words, of some tens of thousands
// distinct), and keeps the words in the order they first appear.
type wordTable struct {
	slots  []int32  // index+1 into list, 0 for an empty slot
	hashes []uint32 // hashes[i]: the hash of list[i]
	list   []string
	count  []int
	bytes  int // of the words in list
}

func newWordTable() *wordTable { return &wordTable{slots: make([]int32, 1024)} }

// FNV-1a's 32-bit offset basis and prime.
const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// wordHash is a word's FNV-1a hash, the one wordReader takes as it reads.
func wordHash(w string) uint32 {
	h := uint32(fnvOffset)
	for i := 0; i < len(w); i++ {
		h ^= uint32(w[i])
		h *= fnvPrime
	}
	return h
}

// add counts one occurrence of the word w, stored without a copy when new.
func (t *wordTable) add(w string) { t.addHashed(w, wordHash(w)) }

// addHashed is add for a word whose hash (wordHash) is h.
func (t *wordTable) addHashed(w string, h uint32) {
	if i, ok := find(t, w, h); ok {
		t.count[i]++
	} else {
		t.insert(i, h, w)
	}
}

// addBytesHashed is addHashed for a word in a buffer, copied when new.
func (t *wordTable) addBytesHashed(w []byte, h uint32) {
	if i, ok := find(t, w, h); ok {
		t.count[i]++
	} else {
		t.insert(i, h, string(w))
	}
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

// insert puts the new word key, of hash h, in the empty slot i.
func (t *wordTable) insert(i int, h uint32, key string) {
	t.slots[i] = int32(len(t.list) + 1)
	t.list = append(t.list, key)
	t.bytes += len(key)
	t.hashes = append(t.hashes, h)
	t.count = append(t.count, 1)
	if 2*len(t.list) > len(t.slots) {
		t.grow()
	}
}

// grow doubles the slots, keeping the table at most half full.
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
