package lint

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// checkRecursionLoop reports every strongly connected group of the trigger graph
// (see triggerGraph) with two or more entries, once: its size, its members
// (the first few by name) and, as the example, one shortest cycle through the
// member with the smallest id. Reporting cycles instead would report one
// 2-entry cycle of a 78-entry group and hide the rest, or report thousands.
func checkRecursionLoop(c *Context) {
	if c.Engine.NoRecursion || c.Settings.RecursionLimit == 0 && has(c.Settings.Fields, "recursionLimit") {
		return // recursion is off: contents activate nothing
	}
	g := c.triggerGraph()
	for _, comp := range g.components() {
		start := comp[0]
		for _, n := range comp[1:] {
			if c.Book.Entries[n].ID < c.Book.Entries[start].ID {
				start = n
			}
		}
		cycle := g.shortestCycle(start, comp)
		if len(cycle) == 0 {
			continue // cannot happen in a component of two entries or more
		}
		var b strings.Builder
		named := map[int]bool{}
		say := func(i int) {
			e := c.Book.Entries[i]
			b.WriteString(e.ID)
			if !named[i] && e.Name != "" && !sameLetters(e.Name, e.ID) {
				b.WriteString(" " + quote(e.Name))
			}
			named[i] = true
		}
		say(start)
		for _, st := range cycle {
			b.WriteString(" → ")
			say(st.to)
			b.WriteString(" (via " + quote(st.word) + ")")
		}
		e := c.Book.Entries[start]
		p := e.FieldPos("content")
		if cycle[0].offset >= 0 {
			p = e.PosInContent(cycle[0].offset)
		}
		if len(comp) == len(cycle) {
			c.Report(e, p, "recursion loop: %s; set preventRecursion on one of them or reword", b.String())
			continue
		}
		const show = 5
		names := make([]string, 0, show)
		for _, i := range comp[:min(len(comp), show)] {
			names = append(names, entryName(c.Book.Entries[i]))
		}
		more := ""
		if len(comp) > show {
			more = " and " + itoa(len(comp)-show) + " more"
		}
		c.Report(e, p, "recursion loop: %d entries activate each other (%s%s); the shortest cycle through %s: %s; set preventRecursion on the entries whose content should not activate others, or excludeRecursion on those only the chat should activate",
			len(comp), strings.Join(names, ", "), more, e.ID, b.String())
	}
}

// components returns the strongly connected components of the graph that hold
// two entries or more, as sorted entry indexes, in order of their first entry.
// Group nodes take part in the search but are not listed. Tarjan's algorithm,
// iterative so that a 100,000-entry chain cannot exhaust the stack.
//
// A node's search state is one record, its edges' span and its first edge's
// target beside its index and low link: the search follows edges all over the
// graph, and on bookgen's 10k JSON book it waited on memory more than it
// computed (three arrays, the spans and the edges: a cache miss each, one
// after the other). Most nodes, a keyword's, have one edge, which the record
// then holds. Before the search, an edge to a group node with one edge goes
// straight to that edge's target, and an edge to a group node with none is
// dropped: the paths between entries are the same, the search visits half
// the nodes, and the rewriting reads the targets' records in one pass, whose
// cache misses overlap. A node taken off the stack gets the index done, above
// every other, which is what "not on the stack" needs: no low link is lowered
// to it.
func (g *triggerGraph) components() [][]int {
	const unseen, done = -1, math.MaxInt32
	type node struct{ first, lo, hi, index, low int32 }
	ns := make([]node, g.nodes())
	for i, s := range g.spans {
		ns[i] = node{lo: s.lo, hi: s.hi, index: unseen}
		if s.lo < s.hi {
			ns[i].first = g.edges[s.lo].to
		}
	}
	const none = -1 // an edge to a group node without edges: a dead end
	to := make([]int32, len(g.edges))
	for k := range g.edges {
		w := g.edges[k].to
		if int(w) >= g.entries {
			switch n := &ns[w]; n.hi - n.lo {
			case 0:
				w = none
			case 1:
				w = n.first
			}
		}
		to[k] = w
	}
	for i := range ns {
		if n := &ns[i]; n.lo < n.hi {
			n.first = to[n.lo]
		}
	}
	var comps [][]int
	var member []bool // sortMembers', made for the first large component
	var stack []int32
	var next int32
	type frame struct{ v, at int32 }
	var call []frame
	for root := range int32(g.entries) {
		if ns[root].index != unseen {
			continue
		}
		call = append(call[:0], frame{root, ns[root].lo})
		ns[root].index, ns[root].low = next, next
		next++
		stack = append(stack, root)
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if nv := &ns[v]; f.at < nv.hi {
				w := nv.first
				if f.at > nv.lo {
					w = to[f.at]
				}
				f.at++
				if w == none {
					continue
				}
				nw := &ns[w]
				switch {
				case nw.index == unseen:
					nw.index, nw.low = next, next
					next++
					stack = append(stack, w)
					call = append(call, frame{w, nw.lo})
				case nw.index < nv.low: // on the stack: a done node's index is above every low link
					nv.low = nw.index
				}
				continue
			}
			call = call[:len(call)-1]
			nv := &ns[v]
			if len(call) > 0 {
				if u := &ns[call[len(call)-1].v]; nv.low < u.low {
					u.low = nv.low
				}
			}
			if nv.low != nv.index {
				continue
			}
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				ns[w].index = done
				if int(w) < g.entries {
					comp = append(comp, int(w))
				}
				if w == v {
					break
				}
			}
			if len(comp) >= 2 {
				sortMembers(comp, &member, g.entries)
				comps = append(comps, comp)
			}
		}
	}
	sort.Slice(comps, func(i, j int) bool { return comps[i][0] < comps[j][0] })
	return comps
}

// sortMembers sorts a component's entries, which come off Tarjan's stack in
// the order the search found them. A component that fills much of its range
// of entries (a book's one large loop: 9,532 of bookgen's 10,000) is marked
// and read back in order, a pass over the range instead of a comparison
// sort; a sparse one, whose range could be the whole book, is sorted, so
// the cost stays within eight steps a member either way. member is a set
// over the book's entries, left empty.
func sortMembers(comp []int, member *[]bool, entries int) {
	lo, hi := slices.Min(comp), slices.Max(comp)
	if hi-lo >= 8*len(comp) {
		slices.Sort(comp)
		return
	}
	if *member == nil {
		*member = make([]bool, entries)
	}
	m := *member
	for _, v := range comp {
		m[v] = true
	}
	k := 0
	for v := lo; v <= hi; v++ {
		if m[v] {
			comp[k], m[v] = v, false
			k++
		}
	}
}

// step is one entry of a cycle: reached by the keyword word, which the
// previous entry's content holds at offset (-1 when only the expanded text
// has it).
type step struct {
	to     int
	word   string
	offset int
}

// shortestCycle finds a cycle from start back to start inside its component
// with the fewest entries: a breadth-first search where entering a group node
// costs nothing and leaving it for an entry costs one (0-1 BFS with a deque).
// A state is a node and whether the path has entered an entry other than
// start yet, so that start's own keyword (a group node start reaches
// directly) cannot cut the search short. Edges are tried in order, so the
// cycle is deterministic.
//
// The search's tables are slices over every state, made once per graph and
// cleared state by state after each search, so a book of many components
// costs what its components hold, not components × nodes.
func (g *triggerGraph) shortestCycle(start int, comp []int) []step {
	sc := g.scratch()
	for _, v := range comp {
		sc.in[v] = true
	}
	defer sc.reset(comp)
	inside := func(v int) bool { return v >= g.entries || sc.in[v] }
	state := func(node int, moved bool) int {
		if moved {
			return 2*node + 1
		}
		return 2 * node
	}
	visit := func(s, d int, from int32, edge int32) {
		if sc.dist[s] < 0 {
			sc.touched = append(sc.touched, int32(s))
		}
		sc.dist[s], sc.prev[s] = int32(d), via{from, edge}
	}
	s0 := state(start, false)
	visit(s0, 0, -1, -1)
	deque := []int32{int32(s0)}
	head := 0
	back := -1 // the state whose edge returns to start
	backEdge, best := 0, -1
	for head < len(deque) {
		v := int(deque[head])
		head++
		dv := int(sc.dist[v])
		if best >= 0 && dv >= best {
			continue
		}
		node, moved := v/2, v%2 == 1
		for k, ed := range g.out(node) {
			w := int(ed.to)
			if !inside(w) {
				continue
			}
			cost := 1
			if w >= g.entries {
				cost = 0
			}
			d := dv + cost
			if w == start {
				if moved && (best < 0 || d < best) {
					best, back, backEdge = d, v, k
				}
				continue
			}
			ws := state(w, moved || w < g.entries)
			if old := sc.dist[ws]; old >= 0 && int(old) <= d {
				continue
			}
			visit(ws, d, int32(v), int32(k))
			if cost == 0 && head > 0 {
				// 0-1 BFS: a free edge goes to the front. The deque is a
				// slice read from head; the slot before head is free.
				head--
				deque[head] = int32(ws)
			} else {
				deque = append(deque, int32(ws))
			}
		}
	}
	if best < 0 {
		return nil
	}
	// Walk back from the closing edge to start, then forward as steps.
	states := []int{back}
	for v := back; v != s0; {
		v = int(sc.prev[v].from)
		states = append(states, v)
	}
	slices.Reverse(states)
	var out []step
	offset := -1
	for i, v := range states {
		var ed edge
		if i+1 < len(states) {
			ed = g.out(v / 2)[sc.prev[states[i+1]].edge]
		} else {
			ed = g.out(back / 2)[backEdge]
		}
		if v/2 < g.entries {
			offset = int(ed.offset)
		}
		if w := int(ed.to); w < g.entries {
			out = append(out, step{to: w, word: g.word(ed), offset: offset})
		}
	}
	return out
}

// via is how a state of shortestCycle's search was reached: from state
// from, by its edge edge.
type via struct{ from, edge int32 }

// cycleScratch is shortestCycle's tables: in marks the component's entries,
// dist and prev are per state (-1: not reached), touched the states to clear.
type cycleScratch struct {
	in      []bool
	dist    []int32
	prev    []via
	touched []int32
}

func (g *triggerGraph) scratch() *cycleScratch {
	if g.cycles == nil {
		sc := &cycleScratch{in: make([]bool, g.entries), dist: make([]int32, 2*g.nodes()), prev: make([]via, 2*g.nodes())}
		for i := range sc.dist {
			sc.dist[i] = -1
		}
		g.cycles = sc
	}
	return g.cycles
}

func (sc *cycleScratch) reset(comp []int) {
	for _, v := range comp {
		sc.in[v] = false
	}
	for _, s := range sc.touched {
		sc.dist[s] = -1
	}
	sc.touched = sc.touched[:0]
}
