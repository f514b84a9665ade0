// Package automaton is lore's Aho-Corasick automaton over byte strings: it
// reports every occurrence of every pattern, overlapping ones included, in one
// pass over a text.
//
// It is built for the keywords of a lorebook, whose alphabet may be large (a
// book of CJK keywords uses most byte values: a full DFA of its 90,000 states
// has a 64-column row each, 23 MB, built and cache-missed on every command):
//
//   - bytes that occur in the same patterns' places are not told apart: a
//     byte is mapped to its class (every byte no pattern holds is class 0);
//   - the shallow states, where a scan spends its time, have a full row of
//     transitions over the classes (at most 4 MB of them), as in a DFA;
//   - every deeper state keeps only its own transitions, sorted by byte, in
//     one shared array (most have one), and a failure link;
//   - matches follow output links (the nearest state on the failure chain
//     where a pattern ends), so no state copies its suffixes' matches.
//
// Memory is about 20 bytes per state, and building is linear in the patterns'
// total length: the trie is one pass, and the failure links, breadth first,
// cost in all at most the patterns' length in steps back (the usual
// Aho-Corasick bound), whatever the patterns look like ("aaaa…" included).
// Scanning is amortised linear in the text for the same reason.
package automaton

import (
	"errors"
	"slices"
)

// Match is one occurrence of a pattern: text[Start:End] equals pattern
// PatternID.
type Match struct {
	PatternID  int
	Start, End int
}

// Automaton finds all patterns at once. It is immutable once built and safe
// for concurrent use.
//
// States are numbered breadth first (the root is 0), so the shallow states,
// where a scan spends most of its time, are the first ones: states below
// dense have a full row of transitions over the byte classes (a failure
// never needs following there), the others their own transitions only.
type Automaton struct {
	class [256]uint8 // byte → class: 0 for bytes in no pattern, else 1…
	root  [256]int32 // the root's transition on each byte, marked (see mark)
	nc    int        // number of classes
	dense int32      // states 0…dense-1 have a row in rows
	rows  []int32    // rows[s*nc+c]: the transition of state s on class c
	// State s's own transitions are on keys[off[s]:off[s+1]] (ascending)
	// to next[off[s]:off[s+1]].
	off  []uint32
	keys []byte
	next []int32
	fail []int32 // failure link (the root for depth-1 states)
	pat  []int32 // the pattern ending at the state, or -1
	out  []int32 // the nearest state on the failure chain with a pattern, or -1
	lens []int32 // pattern lengths
	// fold is the byte a scan reads for each byte: itself, or after
	// FoldASCII an ASCII letter's other case.
	fold *[256]byte
}

// denseCells bounds the full rows: 1M transitions (4 MB) whatever the
// alphabet, the first 10,800 states of a CJK book's automaton (depth 3, about
// 97 classes) or all 40,000 of bookgen's place%d book (18 classes). A quarter
// of it scanned the CJK book a third slower (README, Performance).
const denseCells = 1 << 20

// ErrEmpty is returned for an empty pattern, which would match everywhere.
var ErrEmpty = errors.New("automaton: empty pattern")

// ErrDuplicate is returned for a pattern given twice: callers give each
// distinct pattern once and keep who shares it themselves.
var ErrDuplicate = errors.New("automaton: duplicate pattern")

// edge is a trie edge while building: a child list per state, linked.
type edge struct {
	to      int32
	sibling int32 // next edge of the same state, -1 at the end
	b       byte
}

// New builds the automaton of patterns; pattern i is reported as PatternID i.
func New(patterns [][]byte) (*Automaton, error) {
	total := 0
	for _, p := range patterns {
		if len(p) == 0 {
			return nil, ErrEmpty
		}
		total += len(p)
	}
	a := &Automaton{lens: make([]int32, len(patterns))}
	// The trie, numbered in insertion order: first[s] is state s's first
	// edge, -1 for none.
	first := make([]int32, 1, total+1)
	first[0] = -1
	edges := make([]edge, 0, total)
	pat := make([]int32, 1, total+1)
	pat[0] = -1
	var root [256]int32 // the root's children, 0 for none
	var used [256]bool
	for id, p := range patterns {
		s := int32(0)
		for _, b := range p {
			used[b] = true
			var t int32 = -1
			if s == 0 {
				if r := root[b]; r != 0 {
					t = r
				}
			} else {
				for e := first[s]; e >= 0; e = edges[e].sibling {
					if edges[e].b == b {
						t = edges[e].to
						break
					}
				}
			}
			if t < 0 {
				t = int32(len(first))
				first = append(first, -1)
				pat = append(pat, -1)
				if s == 0 {
					root[b] = t
				}
				edges = append(edges, edge{to: t, sibling: first[s], b: b})
				first[s] = int32(len(edges) - 1)
			}
			s = t
		}
		if pat[s] >= 0 {
			return nil, ErrDuplicate
		}
		pat[s] = int32(id)
		a.lens[id] = int32(len(p))
	}
	n := len(first)
	a.nc = 1
	for b := range used {
		if used[b] {
			a.class[b] = uint8(a.nc)
			a.nc++
		}
	}
	// Renumber breadth first, children by byte, and freeze the child lists
	// into one sorted array.
	type kid struct {
		b  byte
		to int32
	}
	order := make([]int32, 1, n) // new → old
	renum := make([]int32, n)    // old → new
	a.off = make([]uint32, n+1)
	a.keys = make([]byte, 0, len(edges))
	a.next = make([]int32, 0, len(edges))
	a.pat = make([]int32, n)
	var kids []kid
	for s := 0; s < len(order); s++ {
		old := order[s]
		a.off[s] = uint32(len(a.keys))
		a.pat[s] = pat[old]
		// The child list is newest first: reversed, it is in the order
		// the patterns came, often sorted already, which the insertion
		// sort then only checks (a sort with a comparison function cost
		// a sixth of building bookgen's automaton).
		kids = kids[:0]
		for e := first[old]; e >= 0; e = edges[e].sibling {
			kids = append(kids, kid{edges[e].b, edges[e].to})
		}
		slices.Reverse(kids)
		if len(kids) <= 16 {
			for i := 1; i < len(kids); i++ {
				for j := i; j > 0 && kids[j].b < kids[j-1].b; j-- {
					kids[j], kids[j-1] = kids[j-1], kids[j]
				}
			}
		} else {
			slices.SortFunc(kids, func(x, y kid) int { return int(x.b) - int(y.b) })
		}
		for _, k := range kids {
			renum[k.to] = int32(len(order))
			order = append(order, k.to)
			a.keys = append(a.keys, k.b)
			a.next = append(a.next, renum[k.to])
		}
	}
	a.off[n] = uint32(len(a.keys))
	a.dense = int32(min(n, max(denseCells/a.nc, 1)))
	a.links(n)
	a.mark()
	return a, nil
}

// links sets the failure and output links and the dense rows in state
// order, which is breadth first: a state's failure is shallower, so set.
func (a *Automaton) links(n int) {
	a.fail = make([]int32, n)
	a.out = make([]int32, n)
	a.rows = make([]int32, int(a.dense)*a.nc)
	a.out[0] = -1
	for s := int32(0); s < int32(n); s++ {
		for k := a.off[s]; k < a.off[s+1]; k++ {
			b, t := a.keys[k], a.next[k]
			if s == 0 {
				a.fail[t], a.out[t] = 0, -1
				continue
			}
			f := a.fail[s]
			for {
				if g := a.step(f, b); g >= 0 {
					f = g
					break
				}
				f = a.fail[f]
			}
			a.fail[t] = f
			if a.pat[f] >= 0 {
				a.out[t] = f
			} else {
				a.out[t] = a.out[f]
			}
		}
		if s < a.dense {
			// The failure's row (set: it is shallower), with the state's own
			// transitions over it; the root's has only its own.
			row := a.rows[int(s)*a.nc : int(s+1)*a.nc]
			if s > 0 {
				f := int(a.fail[s])
				copy(row, a.rows[f*a.nc:(f+1)*a.nc])
			}
			for k := a.off[s]; k < a.off[s+1]; k++ {
				row[a.class[a.keys[k]]] = a.next[k]
			}
		}
	}
}

// own is state s's own transition on b, or -1 (once marked, a target
// where a match ends is ^t).
func (a *Automaton) own(s int32, b byte) int32 {
	lo, hi := a.off[s], a.off[s+1]
	if hi-lo <= 8 {
		for k := lo; k < hi; k++ {
			if kb := a.keys[k]; kb == b {
				return a.next[k]
			} else if kb > b {
				return -1
			}
		}
		return -1
	}
	i, ok := slices.BinarySearch(a.keys[lo:hi], b)
	if !ok {
		return -1
	}
	return a.next[int(lo)+i]
}

// step is the transition of state s on b: a state, or -1 when s has none
// (a state with a row always has one).
func (a *Automaton) step(s int32, b byte) int32 {
	if s < a.dense {
		return a.rows[int(s)*a.nc+int(a.class[b])]
	}
	return a.own(s, b)
}

// Each calls fn for every occurrence of every pattern in text, by end
// offset; of those ending at the same offset, longest first.
//
// At the root it skips, one table load a byte, the bytes no pattern starts
// with (most of a text); elsewhere it takes one row load a byte, and the
// sign of the state it lands on says whether a match ends there (see mark).
func (a *Automaton) Each(text []byte, fn func(Match)) {
	var s int32
	rows, nc, dense := a.rows, a.nc, a.dense
	for i := 0; i < len(text); i++ {
		switch {
		case s == 0:
			t := a.root[text[i]]
			for t == 0 {
				if i++; i == len(text) {
					return
				}
				t = a.root[text[i]]
			}
			s = t
		case s < dense:
			s = rows[int(s)*nc+int(a.class[text[i]])]
		default:
			s = a.deep(s, text[i])
		}
		if s < 0 {
			s = ^s
			a.emit(s, i+1, fn)
		}
	}
}

// FoldASCII makes scans read the ASCII letters of one case as the other:
// upper to lower, or lower to upper when toUpper is set, so that a text
// whose only change under a case folding would be those letters is scanned
// as it is, without a folded copy. It reports false, and changes nothing,
// when a pattern holds a letter of the case it would fold away.
func (a *Automaton) FoldASCII(toUpper bool) bool {
	from, to := byte('A'), byte('a')
	if toUpper {
		from, to = to, from
	}
	for b := from; b < from+26; b++ {
		if a.class[b] != 0 {
			return false
		}
	}
	fold := new([256]byte)
	for b := range fold {
		fold[b] = byte(b)
	}
	for k := range byte(26) {
		b, c := from+k, to+k
		fold[b] = c
		a.class[b], a.root[b] = a.class[c], a.root[c]
	}
	a.fold = fold
	return true
}

// deep is the transition, marked, of state s without a row on b: its own
// or, failing that, its failure's.
func (a *Automaton) deep(s int32, b byte) int32 {
	if a.fold != nil {
		b = a.fold[b]
	}
	for s >= a.dense {
		if t := a.own(s, b); t != -1 { // marked targets are -2 and below
			return t
		}
		s = a.fail[s]
	}
	return a.rows[int(s)*a.nc+int(a.class[b])]
}

// emit reports the matches ending at state s, which end at byte end.
func (a *Automaton) emit(s int32, end int, fn func(Match)) {
	m := s
	if a.pat[m] < 0 {
		m = a.out[m]
	}
	for ; m >= 0; m = a.out[m] {
		id := a.pat[m]
		fn(Match{PatternID: int(id), Start: end - int(a.lens[id]), End: end})
	}
}

// mark stores, in the transitions a scan follows (the dense rows and the
// own transitions), every target where a match ends as ^t, and fills root,
// the root's row by byte: a scan then tests a sign instead of loading two
// arrays a byte. It runs once the links are set, which read plain targets.
func (a *Automaton) mark() {
	hit := func(t int32) int32 {
		if t > 0 && (a.pat[t] >= 0 || a.out[t] >= 0) {
			return ^t
		}
		return t
	}
	for i, t := range a.rows {
		a.rows[i] = hit(t)
	}
	for i, t := range a.next {
		a.next[i] = hit(t)
	}
	for b := range a.root {
		a.root[b] = a.rows[a.class[b]]
	}
}

// FindAllOverlapping returns every occurrence, in the order Each reports
// them.
func (a *Automaton) FindAllOverlapping(text []byte) []Match {
	var out []Match
	a.Each(text, func(m Match) { out = append(out, m) })
	return out
}

// States is the number of states, the root included.
func (a *Automaton) States() int { return len(a.pat) }

// MemoryUsage is the automaton's size in bytes, near enough.
func (a *Automaton) MemoryUsage() int {
	return len(a.rows)*4 + len(a.off)*4 + len(a.keys) + len(a.next)*4 + len(a.fail)*4 + len(a.pat)*4 + len(a.out)*4 + len(a.lens)*4
}
