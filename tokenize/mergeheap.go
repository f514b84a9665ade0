package tokenize

import "github.com/lorekit/lore/tokenize/internal/ranks"

// mergeHeap holds candidate merges as rank<<32 | start, so the smallest is
// the lowest rank and, of equal ones, the leftmost: the pair a scan would
// merge.
type mergeHeap []uint64

func (h *mergeHeap) push(v uint64) {
	*h = append(*h, v)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p] <= s[i] {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *mergeHeap) pop() uint64 {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < len(s) && s[l] < s[small] {
			small = l
		}
		if r := l + 1; r < len(s) && s[r] < s[small] {
			small = r
		}
		if small == i {
			break
		}
		s[i], s[small] = s[small], s[i]
		i = small
	}
	*h = s
	return top
}

// mergeHeap merges a long piece in O(n log n): the parts are a linked list
// of starts, each with the rank of merging it with the next part, and every
// candidate merge is in the heap. A popped candidate is stale when its start
// was merged away or its rank changed since (its neighbour grew); a current
// one is exactly the pair the scan in merge would choose next.
func (m *merger) mergeHeap(t *ranks.Table, piece string) []int32 {
	n := int32(len(piece))
	next := make([]int32, n) // the next part's start, n after the last
	prev := make([]int32, n) // the previous part's start, -1 before the first
	cur := make([]uint32, n) // the rank of merging the part with the next
	alive := make([]bool, n)
	rank := func(i int32) uint32 {
		j := next[i]
		if j >= n {
			return noRank
		}
		if r, ok := t.Rank(piece[i:next[j]]); ok {
			return r
		}
		return noRank
	}
	for i := range n {
		next[i], prev[i], alive[i] = i+1, i-1, true
	}
	m.heap = m.heap[:0]
	for i := range n {
		cur[i] = rank(i)
		if cur[i] != noRank {
			m.heap.push(uint64(cur[i])<<32 | uint64(i))
		}
	}
	for len(m.heap) > 0 {
		v := m.heap.pop()
		r, s := uint32(v>>32), int32(uint32(v))
		if !alive[s] || cur[s] != r {
			continue
		}
		j := next[s] // merged into s
		alive[j] = false
		next[s] = next[j]
		if next[s] < n {
			prev[next[s]] = s
		}
		if cur[s] = rank(s); cur[s] != noRank {
			m.heap.push(uint64(cur[s])<<32 | uint64(s))
		}
		if q := prev[s]; q >= 0 {
			if cur[q] = rank(q); cur[q] != noRank {
				m.heap.push(uint64(cur[q])<<32 | uint64(q))
			}
		}
	}
	b := m.bounds[:0]
	for i := int32(0); i < n; i = next[i] {
		b = append(b, i)
	}
	b = append(b, n)
	m.bounds = b
	return b
}
