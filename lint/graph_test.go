package lint

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// graphOf builds a trigger graph of entries entry nodes from adjacency
// lists, one per node (entries first, then group nodes).
func graphOf(entries int, adj [][]int) *triggerGraph {
	g := &triggerGraph{entries: entries, spans: make([]span, len(adj))}
	for v, ws := range adj {
		g.spans[v].lo = int32(len(g.edges))
		for _, w := range ws {
			g.add(edge{to: int32(w), offset: -1, pattern: -1})
		}
		g.spans[v].hi = int32(len(g.edges))
	}
	return g
}

// referenceComponents is components by definition: two entries are in one
// component when each reaches the other, through any nodes.
func referenceComponents(entries int, adj [][]int) [][]int {
	reach := make([][]bool, len(adj))
	for s := range adj {
		reach[s] = make([]bool, len(adj))
		todo := []int{s}
		for len(todo) > 0 {
			v := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, w := range adj[v] {
				if !reach[s][w] {
					reach[s][w] = true
					todo = append(todo, w)
				}
			}
		}
	}
	var comps [][]int
	placed := make([]bool, entries)
	for a := range entries {
		if placed[a] {
			continue
		}
		comp := []int{a}
		for b := a + 1; b < entries; b++ {
			if !placed[b] && reach[a][b] && reach[b][a] {
				comp = append(comp, b)
				placed[b] = true
			}
		}
		if len(comp) >= 2 {
			comps = append(comps, comp)
		}
	}
	return comps
}

// TestComponentsMatchReachability holds Tarjan's search to the definition on
// random graphs of entries and group nodes, sparse and dense, with self
// loops, parallel edges and chains through group nodes, small ones and
// larger ones whose components spread over their entries (both ways
// sortMembers orders a component).
func TestComponentsMatchReachability(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 24))
	for round := range 3300 {
		entries := 1 + r.IntN(12)
		nodes := entries + r.IntN(10)
		edges := r.IntN(3 * nodes)
		if round >= 3000 { // larger and sparser: components spread over the entries
			entries = 40 + r.IntN(160)
			nodes = entries + r.IntN(entries)
			edges = nodes + r.IntN(nodes/2)
		}
		adj := make([][]int, nodes)
		for range edges {
			v := r.IntN(nodes)
			adj[v] = append(adj[v], r.IntN(nodes))
		}
		got := graphOf(entries, adj).components()
		want := referenceComponents(entries, adj)
		if !cmp.Equal(got, want) {
			t.Fatalf("round %d: %d entries, graph %v:\ncomponents %v\nwant       %v", round, entries, adj, got, want)
		}
	}
}

// TestComponentsOfALongChain: a cycle through 100,000 entries, each reaching
// the next through a group node, is one component, found without recursion.
func TestComponentsOfALongChain(t *testing.T) {
	const n = 100000
	adj := make([][]int, 2*n)
	for i := range n {
		adj[i] = []int{n + i}
		adj[n+i] = []int{(i + 1) % n}
	}
	comps := graphOf(n, adj).components()
	if len(comps) != 1 || len(comps[0]) != n || comps[0][0] != 0 || comps[0][n-1] != n-1 {
		sizes := make([]int, len(comps))
		for i, c := range comps {
			sizes[i] = len(c)
		}
		t.Fatalf("components of sizes %v, want one of %d", sizes, n)
	}
}
