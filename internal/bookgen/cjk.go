package bookgen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// The hard shape: what real books in a large alphabet look like to the
// keyword automaton and the budget, unlike the place%d books above, whose
// keywords use 17 distinct bytes and whose chat is two messages long.
//
//   - keywords: two per entry, each random Latin letters (5–9) or, about
//     30 % of them, a 2–4-character CJK word from the whole CJK Unified
//     block (so the automaton's alphabet is large and its states many);
//   - contents: 60 words from a 2,000-word vocabulary (Latin and CJK), with
//     two other entries' keywords in each, so activation saturates through
//     recursion;
//   - a 128k context (settings.contextTokens: 131072);
//   - chats (HardChat) of any length, 80 words a message, naming keywords.
const (
	// CJK is the hard shape as lore YAML.
	CJK Shape = "cjk"
	// HardContext is the context window the CJK shape's manifest sets.
	HardContext = 131072
	// HardWords is the number of words of a CJK-shape message.
	HardWords = 80
)

const (
	vocabSize    = 2000
	contentWords = 60
)

// rng is a generator for one purpose and index, so entry i's keywords are
// the same in a book of any size.
func rng(purpose, i uint64) *rand.Rand { return rand.New(rand.NewPCG(purpose, i)) }

func latinWord(r *rand.Rand, lo, hi int) string {
	b := make([]byte, lo+r.IntN(hi-lo+1))
	for i := range b {
		b[i] = byte('a' + r.IntN(26))
	}
	return string(b)
}

func cjkWord(r *rand.Rand, lo, hi int) string {
	rs := make([]rune, lo+r.IntN(hi-lo+1))
	for i := range rs {
		rs[i] = rune(0x4E00 + r.IntN(0x9FA5-0x4E00+1))
	}
	return string(rs)
}

// HardKeyword is keyword k (0 or 1) of entry i of the CJK shape.
func HardKeyword(i, k int) string {
	r := rng(1, uint64(2*i+k))
	if r.IntN(10) < 3 {
		return cjkWord(r, 2, 4)
	}
	w := latinWord(r, 5, 9)
	if r.IntN(2) == 0 {
		w = strings.ToUpper(w[:1]) + w[1:]
	}
	return w
}

var vocabulary = func() []string {
	r := rng(2, 0)
	v := make([]string, vocabSize)
	for i := range v {
		if r.IntN(10) < 3 {
			v[i] = cjkWord(r, 1, 3)
		} else {
			v[i] = latinWord(r, 2, 8)
		}
	}
	return v
}()

// words writes n vocabulary words from r, with the keywords kws at
// positions chosen by r, separated by spaces.
func words(b *bytes.Buffer, r *rand.Rand, n int, kws []string) {
	at := map[int]string{}
	for _, kw := range kws {
		p := r.IntN(n)
		for at[p] != "" {
			p = (p + 1) % n
		}
		at[p] = kw
	}
	for w := range n {
		if w > 0 {
			b.WriteByte(' ')
		}
		if kw := at[w]; kw != "" {
			b.WriteString(kw)
		} else {
			b.WriteString(vocabulary[r.IntN(len(vocabulary))])
		}
		if w%12 == 11 {
			b.WriteByte('.')
		}
	}
}

func hardContent(i, n int) string {
	r := rng(3, uint64(i))
	var b bytes.Buffer
	words(&b, r, contentWords, []string{HardKeyword(r.IntN(n), 0), HardKeyword(r.IntN(n), 1)})
	return b.String()
}

func cjkYAML(n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "name: Hard\ndescription: A generated lorebook in a large alphabet.\nsettings: {contextTokens: %d}\nentries:\n", HardContext)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - id: %s\n    name: Entry %d\n    role: lore\n    section: chat-history\n    keywords: [%s, %s]\n    position: %d\n",
			id(i), i, HardKeyword(i, 0), HardKeyword(i, 1), i%10)
		if i%7 == 0 {
			b.WriteString("    matchWholeWords: true\n")
		}
		b.WriteString("    content: " + hardContent(i, n) + "\n")
	}
	return b.Bytes()
}

// HardChat is a transcript (YAML) of messages messages of HardWords words
// each, alternately the user's and the assistant's, each naming two
// keywords of a CJK-shape book of entries entries.
func HardChat(entries, messages int) []byte {
	var b bytes.Buffer
	b.WriteString("messages:\n")
	for m := range messages {
		r := rng(4, uint64(m))
		role := "user"
		if m%2 == 1 {
			role = "assistant"
		}
		b.WriteString("  - role: " + role + "\n    content: ")
		words(&b, r, HardWords, []string{HardKeyword(r.IntN(entries), 0), HardKeyword(r.IntN(entries), 1)})
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// WriteHardChat writes HardChat(entries, messages) into dir and returns its
// path.
func WriteHardChat(dir string, entries, messages int) (string, error) {
	p := filepath.Join(dir, fmt.Sprintf("chat-%d-%d.yaml", entries, messages))
	return p, os.WriteFile(p, HardChat(entries, messages), 0o644)
}
