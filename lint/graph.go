package lint

import (
	"slices"
	"sort"
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// triggerGraph is "the content of A activates B during recursion" (SPEC §1) for
// every pair of entries, kept linear in size: a keyword is a node of its own
// between the contents that mention it and the entries it activates. Ten
// thousand entries that share the keyword `tavern` and mention it are then
// 20,000 edges through one node, not 10⁸ pairs, and each content is scanned
// once (one automaton pass), whatever the number of entries it activates.
//
// Nodes 0..entries-1 are entries (indexes in Book.Entries); node entries+2g is
// keyword group g as found anywhere, entries+2g+1 the same group found at word
// boundaries (which is all that entries with matchWholeWords accept).
//
// Sources are the entries whose content is scanned: enabled, keyword-activated
// or constant, without preventRecursion. Targets are keyword-activated entries
// without excludeRecursion. A target with secondary keywords needs its
// secondary logic to hold on the same content, which depends on the pair, so
// such targets get direct edges from each source instead of group edges.
//
// The edges are one slice, each node's a span of it (a source's are
// appended as its content is scanned), so building the graph allocates a
// few large slices rather than one per node, and walking it reads memory in
// order.
type triggerGraph struct {
	entries int
	spans   []span // per node, where its edges are in edges
	edges   []edge
	idx     *keywordIndex
	cycles  *cycleScratch // shortestCycle's, made on its first search
}

type span struct{ lo, hi int32 }

// out is node v's edges.
func (g *triggerGraph) out(v int) []edge {
	s := g.spans[v]
	return g.edges[s.lo:s.hi]
}

// nodes is the number of nodes.
func (g *triggerGraph) nodes() int { return len(g.spans) }

// edge goes to node to. From an entry to a group node, offset is where the
// content first holds the keyword (-1 when only the macro-expanded text has
// it); from a group node or for a direct edge, pattern is the target's
// keyword that fired.
type edge struct {
	to      int32
	offset  int32
	pattern int32
}

// add appends ed to the edges, doubling their room when it runs out:
// append grows a large slice by a quarter, which made building the graph
// allocate five times the edges' final size.
func (g *triggerGraph) add(ed edge) {
	if len(g.edges) == cap(g.edges) {
		g.edges = slices.Grow(g.edges, max(len(g.edges), 1024))
	}
	g.edges = append(g.edges, ed)
}

// word is the keyword an edge into an entry stands for.
func (g *triggerGraph) word(ed edge) string { return g.idx.refs[ed.pattern].kw.Text }

func (c *Context) triggerGraph() *triggerGraph {
	if c.shared.graph != nil {
		return c.shared.graph
	}
	idx := c.keywords()
	entries := c.Book.Entries
	ng := idx.m.NumGroups()
	g := &triggerGraph{entries: len(entries), spans: make([]span, len(entries)+2*ng), idx: idx}
	// Group nodes: to each plain target once (its first primary pattern of
	// the group); the bounded node also to targets that want whole words.
	// A group's record (hits, below) spans, in selective, the patterns
	// (primary and secondary) of its targets with secondary keywords,
	// tallied per source below.
	hits := make([]groupHits, ng)
	var selective []int32
	type plain struct {
		ed    edge
		whole bool
	}
	var plains []plain
	for gi := 0; gi < ng; gi++ {
		last := -1
		plains = plains[:0]
		hits[gi] = groupHits{source: [2]int32{-1, -1}, sel: [2]int32{int32(len(selective)), int32(len(selective))}}
		for _, p := range idx.m.GroupPatterns(gi) {
			ref := idx.refs[p]
			t := entries[ref.entry]
			if t.ExcludeRecursion {
				continue
			}
			if len(t.SecondaryKeywords) > 0 {
				selective = append(selective, int32(p))
				hits[gi].sel[1]++
				continue
			}
			if ref.secondary || ref.entry == last {
				continue
			}
			last = ref.entry
			plains = append(plains, plain{edge{to: int32(ref.entry), offset: -1, pattern: int32(p)}, idx.m.WantsBoundaries(p)})
		}
		node := len(entries) + 2*gi
		g.spans[node].lo = int32(len(g.edges))
		for _, pl := range plains {
			if !pl.whole {
				g.add(pl.ed)
			}
		}
		g.spans[node].hi = int32(len(g.edges))
		g.spans[node+1].lo = int32(len(g.edges))
		for _, pl := range plains {
			g.add(pl.ed)
		}
		g.spans[node+1].hi = int32(len(g.edges))
	}

	// Per source: which group nodes it reaches (stamped in the group's
	// record, so no map per content), and the selective targets' primary
	// and secondary hits.
	// Room for about two group nodes a source, most contents' share;
	// add doubles it when a book's contents name more.
	g.edges = slices.Grow(g.edges, 2*len(entries))
	type target struct {
		stamp     int
		primary   int32 // first primary pattern hit, -1 none
		offset    int32
		secondary map[int]bool
	}
	targets := map[int]*target{}
	var touched []int
	for a, e := range entries {
		g.spans[a] = span{int32(len(g.edges)), int32(len(g.edges))}
		if !e.Enabled || e.PreventRecursion || !(e.IsConstant() || !e.AlwaysSend) || e.Content == "" {
			continue
		}
		text, exact := c.scannedContent(e)
		touched = touched[:0]
		idx.m.Occurrences(text, func(o match.Occurrence) {
			off := int32(o.Start)
			if !exact {
				off = -1
			}
			b := 0
			if o.Bounded {
				b = 1
			}
			gh := &hits[o.Group]
			if gh.source[b] != int32(a) {
				gh.source[b], gh.at[b] = int32(a), int32(len(g.edges))
				g.add(edge{to: int32(len(entries) + 2*o.Group + b), offset: off, pattern: -1})
			} else if ed := &g.edges[gh.at[b]]; off >= 0 && off < ed.offset {
				ed.offset = off // the earliest place, whatever order hits come in
			}
			for _, p32 := range selective[gh.sel[0]:gh.sel[1]] {
				p := int(p32)
				ref := idx.refs[p]
				if !idx.fires(p, o) {
					continue
				}
				st := targets[ref.entry]
				if st == nil {
					st = &target{stamp: -1}
					targets[ref.entry] = st
				}
				if st.stamp != a {
					*st = target{stamp: a, primary: -1}
					touched = append(touched, ref.entry)
				}
				if ref.secondary {
					if st.secondary == nil {
						st.secondary = map[int]bool{}
					}
					st.secondary[p] = true
				} else if st.primary < 0 || (off >= 0 && off < st.offset) {
					st.primary, st.offset = int32(p), off
				}
			}
		})
		sort.Ints(touched)
		for _, b := range touched {
			st := targets[b]
			if st.primary < 0 || !secondaryHolds(entries[b], len(st.secondary)) {
				continue
			}
			g.add(edge{to: int32(b), offset: st.offset, pattern: st.primary})
		}
		g.spans[a].hi = int32(len(g.edges))
	}
	c.shared.graph = g
	return g
}

// groupHits is what building the trigger graph keeps per keyword group, in
// one record so that a hit reads one cache line (they come in the content's
// order, from anywhere in the book): per group node (the group found
// anywhere, and at word boundaries) the source that last reached it and
// where in edges its edge is, and the span of selective holding the
// patterns of the group's targets with secondary keywords.
type groupHits struct {
	source, at [2]int32
	sel        [2]int32
}

// secondaryHolds applies SPEC §1's secondary logic given how many distinct
// secondary keywords matched the same text as the primary.
func secondaryHolds(e *schema.Entry, matched int) bool {
	n := len(e.SecondaryKeywords)
	if n == 0 {
		return true
	}
	switch e.SecondaryKeywordLogic {
	case schema.AndAll:
		return matched >= n
	case schema.NotAny:
		return matched == 0
	case schema.NotAll:
		return matched < n
	}
	return matched > 0 // AND_ANY, the default
}

// scannedContent is the content as recursion scans it: macros expanded (SPEC §3).
// exact says offsets in it are offsets in the source content.
func (c *Context) scannedContent(e *schema.Entry) (string, bool) {
	if !strings.Contains(e.Content, "{{") {
		return e.Content, true
	}
	x := c.macros().Expand(e.Content)
	return x, x == e.Content
}
