// Package ranks holds the byte-pair ranks of the BPE tokenizers lore counts
// with, as tables compiled into the binary that are read in place: looking a
// token up costs a hash and a probe, and nothing is decoded when the process
// starts or first counts. (tiktoken-go's vocabulary of o200k_base is a Go map
// literal of 200,000 entries: 16–29 ms of CPU to build on each run, and a
// map of some 6 MB the collector then scans on every cycle.)
//
// The tables are generated from tiktoken-go's vocabularies by genranks
// (go generate ./tokenize/...), and a test holds them equal.
//
// A table is little-endian uint32s:
//
//	magic "LRK1", n (ranks 0…n-1), k (the hash table has 2^k slots),
//	offsets[n+1]: the token of rank r is blob[offsets[r]:offsets[r+1]] (empty: no such rank),
//	slots[2^k]: rank+1 of the token hashed there (FNV-1a, linear probing), 0 for none,
//	blob: the tokens' bytes, in rank order.
package ranks

//go:generate go run ../genranks -out .

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"sync"
)

// Table maps tokens (byte strings) to their ranks.
type Table struct {
	n, mask uint32
	offsets []byte
	slots   []byte
	blob    []byte
}

//go:embed o200k_base.bin
var o200kBase []byte

//go:embed cl100k_base.bin
var cl100kBase []byte

// O200kBase and Cl100kBase are the two tables lore embeds (read on first
// use; reading one copies nothing).
var (
	O200kBase  = sync.OnceValue(func() *Table { return mustParse(o200kBase) })
	Cl100kBase = sync.OnceValue(func() *Table { return mustParse(cl100kBase) })
)

func mustParse(b []byte) *Table {
	t, err := Parse(b)
	if err != nil {
		panic("ranks: embedded table: " + err.Error())
	}
	return t
}

// Parse reads a table without copying it. It checks the header and the
// sizes; the offsets and slots inside are trusted, since the only tables lore
// reads are the embedded ones, which TestRankTablesMatchTiktoken holds to
// tiktoken-go's vocabularies.
func Parse(b []byte) (*Table, error) {
	if len(b) < 12 || string(b[:4]) != "LRK1" {
		return nil, errors.New("not a rank table")
	}
	n, k := binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
	if k > 30 || n >= 1<<30 {
		return nil, errors.New("rank table too large")
	}
	offEnd := 12 + 4*(uint64(n)+1)
	slotEnd := offEnd + 4<<uint64(k)
	if uint64(len(b)) < slotEnd {
		return nil, errors.New("rank table truncated")
	}
	t := &Table{n: n, mask: 1<<k - 1, offsets: b[12:offEnd], slots: b[offEnd:slotEnd], blob: b[slotEnd:]}
	if uint64(t.off(n)) != uint64(len(t.blob)) {
		return nil, errors.New("rank table's tokens do not end where its blob does")
	}
	return t, nil
}

func (t *Table) off(r uint32) uint32 { return binary.LittleEndian.Uint32(t.offsets[4*r:]) }

// Len is the number of ranks, n: every rank is below it.
func (t *Table) Len() int { return int(t.n) }

// Token is the token of rank r, or "" if there is none.
func (t *Table) Token(r int) []byte {
	if r < 0 || uint32(r) >= t.n {
		return nil
	}
	return t.blob[t.off(uint32(r)):t.off(uint32(r)+1)]
}

// Rank is the rank of token s.
func (t *Table) Rank(s string) (uint32, bool) {
	for i := Hash(s) & t.mask; ; i = (i + 1) & t.mask {
		v := binary.LittleEndian.Uint32(t.slots[4*i:])
		if v == 0 {
			return 0, false
		}
		r := v - 1
		if string(t.blob[t.off(r):t.off(r+1)]) == s {
			return r, true
		}
	}
}

// Hash is 32-bit FNV-1a, the table's hash.
func Hash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// Build writes the table of tokens, tokens[r] being the token of rank r (nil
// for a rank without one). Every token must be distinct.
func Build(tokens [][]byte) ([]byte, error) {
	n := uint32(len(tokens))
	k := uint32(1)
	for 1<<k < 2*n { // at most half full
		k++
	}
	mask := uint32(1)<<k - 1
	size := 0
	for _, tok := range tokens {
		size += len(tok)
	}
	out := make([]byte, 0, 12+4*(int(n)+1)+4<<k+size)
	out = append(out, "LRK1"...)
	out = binary.LittleEndian.AppendUint32(out, n)
	out = binary.LittleEndian.AppendUint32(out, k)
	off := uint32(0)
	for _, tok := range tokens {
		out = binary.LittleEndian.AppendUint32(out, off)
		off += uint32(len(tok))
	}
	out = binary.LittleEndian.AppendUint32(out, off)
	slots := make([]uint32, 1<<k)
	seen := make(map[string]bool, n)
	for r, tok := range tokens {
		if len(tok) == 0 {
			continue
		}
		if seen[string(tok)] {
			return nil, errors.New("token given twice: " + string(tok))
		}
		seen[string(tok)] = true
		i := Hash(string(tok)) & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = uint32(r) + 1
	}
	for _, v := range slots {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	for _, tok := range tokens {
		out = append(out, tok...)
	}
	return out, nil
}
