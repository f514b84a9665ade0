package lint

import (
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
func (g *triggerGraph) components() [][]int {
	n := len(g.adj)
	index := make([]int32, n)
	low := make([]int32, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var comps [][]int
	var stack []int
	var next int32
	type frame struct{ v, i int }
	var call []frame
	for root := 0; root < g.entries; root++ {
		if index[root] >= 0 {
			continue
		}
		call = append(call[:0], frame{root, 0})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		on[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.i < len(g.adj[v]) {
				w := int(g.adj[v][f.i].to)
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					on[w] = true
					call = append(call, frame{w, 0})
				} else if on[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				if low[v] < low[u] {
					low[u] = low[v]
				}
			}
			if low[v] != index[v] {
				continue
			}
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				if w < g.entries {
					comp = append(comp, w)
				}
				if w == v {
					break
				}
			}
			if len(comp) >= 2 {
				sort.Ints(comp)
				comps = append(comps, comp)
			}
		}
	}
	sort.Slice(comps, func(i, j int) bool { return comps[i][0] < comps[j][0] })
	return comps
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
func (g *triggerGraph) shortestCycle(start int, comp []int) []step {
	in := make(map[int]bool, len(comp))
	for _, v := range comp {
		in[v] = true
	}
	inside := func(v int) bool { return v >= g.entries || in[v] }
	type state struct {
		node  int
		moved bool
	}
	type via struct {
		from state
		edge int
	}
	prev := map[state]via{}
	dist := map[state]int{{start, false}: 0}
	deque := []state{{start, false}}
	head := 0
	var back state // the state whose edge returns to start
	backEdge, best := 0, -1
	for head < len(deque) {
		v := deque[head]
		head++
		if best >= 0 && dist[v] >= best {
			continue
		}
		for k, ed := range g.adj[v.node] {
			w := int(ed.to)
			if !inside(w) {
				continue
			}
			cost := 1
			if w >= g.entries {
				cost = 0
			}
			d := dist[v] + cost
			if w == start {
				if v.moved && (best < 0 || d < best) {
					best, back, backEdge = d, v, k
				}
				continue
			}
			ws := state{w, v.moved || w < g.entries}
			if old, ok := dist[ws]; ok && old <= d {
				continue
			}
			dist[ws] = d
			prev[ws] = via{v, k}
			if cost == 0 && head > 0 {
				// 0-1 BFS: a free edge goes to the front. The deque is a
				// slice read from head; the slot before head is free.
				head--
				deque[head] = ws
			} else {
				deque = append(deque, ws)
			}
		}
	}
	if best < 0 {
		return nil
	}
	// Walk back from the closing edge to start, then forward as steps.
	states := []state{back}
	for v := back; v.node != start || v.moved; {
		v = prev[v].from
		states = append(states, v)
	}
	for i, j := 0, len(states)-1; i < j; i, j = i+1, j-1 {
		states[i], states[j] = states[j], states[i]
	}
	var out []step
	offset := -1
	for i, v := range states {
		var ed edge
		if i+1 < len(states) {
			ed = g.adj[v.node][prev[states[i+1]].edge]
		} else {
			ed = g.adj[back.node][backEdge]
		}
		if v.node < g.entries {
			offset = int(ed.offset)
		}
		if w := int(ed.to); w < g.entries {
			out = append(out, step{to: w, word: g.word(ed), offset: offset})
		}
	}
	return out
}
