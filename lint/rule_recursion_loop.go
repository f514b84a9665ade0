package lint

import (
	"sort"
	"strings"

	"github.com/lorekit/lore/schema"
)

// edge is "the content of from activates to", with the keyword of to that the
// content contains and where.
type edge struct {
	to     int
	word   string
	offset int // byte offset in from's content; -1 when only the expanded text has it
}

// checkRecursionLoop builds the trigger graph — A → B when A's content would
// activate B during recursion (SPEC §1) — with one automaton pass over each
// content, then finds its strongly connected components (Tarjan). Every component
// of two or more entries is reported once, at the entry with the smallest id in it, with one
// shortest cycle through that entry spelled out.
//
// Sources are the entries whose content is scanned: enabled, keyword-activated or
// constant, without preventRecursion. Targets are keyword-activated entries
// without excludeRecursion. An edge needs a primary keyword in the content and
// the target's secondary logic to hold on that same content.
func checkRecursionLoop(c *Context) {
	if c.Settings.RecursionLimit == 0 && has(c.Settings.Fields, "recursionLimit") {
		return // recursion is off: contents activate nothing
	}
	g := c.triggerGraph()
	for _, comp := range tarjan(g) {
		if len(comp) == 1 {
			// A self-loop (an entry mentioning its own keyword) does nothing: an
			// entry activates at most once per render. Nearly every entry has
			// one, so reporting them would bury the real cycles.
			continue
		}
		start := comp[0]
		for _, n := range comp[1:] {
			if c.Book.Entries[n].ID < c.Book.Entries[start].ID {
				start = n
			}
		}
		cycle := shortestCycle(g, start, comp)
		var b strings.Builder
		b.WriteString(c.Book.Entries[start].ID)
		for _, ed := range cycle {
			b.WriteString(" → " + c.Book.Entries[ed.to].ID + " (via \"" + ed.word + "\")")
		}
		e := c.Book.Entries[start]
		p := e.FieldPos("content")
		if cycle[0].offset >= 0 {
			p = e.PosInContent(cycle[0].offset)
		}
		c.Report(e, p, "recursion loop: %s; set preventRecursion on one of them or reword", b.String())
	}
}

// triggerGraph returns, for each entry index, its out-edges sorted by target.
func (c *Context) triggerGraph() [][]edge {
	idx := c.keywords()
	entries := c.Book.Entries
	g := make([][]edge, len(entries))
	// Per target, scratch state stamped with the source it belongs to, so no map
	// is allocated per content.
	type state struct {
		stamp     int
		primary   int // pattern of the first primary hit, -1 none
		offset    int
		secondary map[int]bool
	}
	st := make([]state, len(entries))
	for i := range st {
		st[i].stamp = -1
	}
	var touched []int
	for a, e := range entries {
		if !e.Enabled || e.PreventRecursion || !(e.IsConstant() || !e.AlwaysSend) || e.Content == "" {
			continue
		}
		text, exact := c.scannedContent(e)
		touched = touched[:0]
		for _, h := range idx.m.Find(text) {
			ref := idx.refs[h.Pattern]
			b := ref.entry
			if entries[b].ExcludeRecursion {
				continue
			}
			s := &st[b]
			if s.stamp != a {
				*s = state{stamp: a, primary: -1}
				touched = append(touched, b)
			}
			if ref.secondary {
				if s.secondary == nil {
					s.secondary = map[int]bool{}
				}
				s.secondary[h.Pattern] = true
			} else if s.primary < 0 {
				s.primary, s.offset = h.Pattern, h.Start
			}
		}
		sort.Ints(touched)
		for _, b := range touched {
			s := &st[b]
			if s.primary < 0 || !secondaryHolds(entries[b], len(s.secondary)) {
				continue
			}
			off := s.offset
			if !exact {
				off = -1
			}
			g[a] = append(g[a], edge{to: b, word: idx.refs[s.primary].kw.Text, offset: off})
		}
	}
	return g
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

// tarjan returns the strongly connected components of g, each sorted, in a
// deterministic order. It is iterative so that a 20,000-entry chain cannot
// exhaust the stack.
func tarjan(g [][]edge) [][]int {
	n := len(g)
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var comps [][]int
	var sccStack []int
	next := 0
	type frame struct{ v, i int }
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		sccStack = append(sccStack, root)
		on[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.i < len(g[v]) {
				w := g[v][f.i].to
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					sccStack = append(sccStack, w)
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
			if low[v] == index[v] {
				var comp []int
				for {
					w := sccStack[len(sccStack)-1]
					sccStack = sccStack[:len(sccStack)-1]
					on[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				sort.Ints(comp)
				comps = append(comps, comp)
			}
		}
	}
	sort.Slice(comps, func(i, j int) bool { return comps[i][0] < comps[j][0] })
	return comps
}

// shortestCycle is a breadth-first search from start back to start inside its
// component; edges are tried in target order, so the cycle is deterministic.
func shortestCycle(g [][]edge, start int, comp []int) []edge {
	in := make(map[int]bool, len(comp))
	for _, v := range comp {
		in[v] = true
	}
	type via struct {
		from int
		e    edge
	}
	prev := map[int]via{}
	queue := []int{start}
	seen := map[int]bool{start: true}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, ed := range g[v] {
			if !in[ed.to] || ed.to == v {
				continue // self-loops are not cycles worth reporting (see above)
			}
			if ed.to == start {
				path := []edge{ed}
				for u := v; u != start; u = prev[u].from {
					path = append(path, prev[u].e)
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if !seen[ed.to] {
				seen[ed.to] = true
				prev[ed.to] = via{from: v, e: ed}
				queue = append(queue, ed.to)
			}
		}
	}
	return nil
}
