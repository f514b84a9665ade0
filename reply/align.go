package reply

// A format's elements become a small program over lines (a Thompson
// automaton: lines, forks for choices and repeats), and a reply's block is
// aligned with it by dynamic programming — the cheapest way through the
// program that consumes every line of the block, a template line being
// matched, changed or missing and a reply line being extra (costs in
// match.go). The alignment is linear in the block's lines for a given
// format: rows of the program's states, one per line.

type opcode uint8

const (
	opLine  opcode = iota // consume one line matching pat
	opFork                // go on at any of to
	opJump                // go on at to[0]
	opEnter               // a repeat starts (its count begins)
	opIter                // a repeat's group starts again
	opEnd                 // the block is done
)

type inst struct {
	op  opcode
	pat *linePat
	to  []int
	rep *repeat
}

// program compiles elements into instructions, ending with opEnd.
func program(body []elem) []inst {
	var prog []inst
	var emit func(es []elem)
	emit = func(es []elem) {
		for _, e := range es {
			switch {
			case e.pat != nil:
				prog = append(prog, inst{op: opLine, pat: e.pat})
			case e.choice != nil:
				fork := len(prog)
				prog = append(prog, inst{op: opFork})
				var jumps []int
				for _, o := range e.choice.opts {
					prog[fork].to = append(prog[fork].to, len(prog))
					emit(o)
					jumps = append(jumps, len(prog))
					prog = append(prog, inst{op: opJump})
				}
				for _, j := range jumps {
					prog[j].to = []int{len(prog)}
				}
			case e.rep != nil:
				prog = append(prog, inst{op: opEnter, rep: e.rep})
				loop := len(prog)
				prog = append(prog, inst{op: opIter, rep: e.rep})
				emit(e.rep.body)
				prog = append(prog, inst{op: opFork, to: []int{loop, len(prog) + 1}})
			}
		}
	}
	emit(body)
	return append(prog, inst{op: opEnd})
}

// step is one move of an alignment.
type step struct {
	kind stepKind
	s    int // the program state the move leaves
	line int // the block line consumed (consume, extra), -1 for none
	cost int8
}

type stepKind uint8

const (
	stepEps     stepKind = iota // a fork, jump, enter or iter
	stepSkip                    // a template line missing from the reply
	stepConsume                 // a reply line for a template line (cost says how well it matches)
	stepExtra                   // a reply line the template does not have
)

const inf = int32(1 << 30)

// aligner aligns the lines of one block with a program.
type aligner struct {
	prog  []inst
	lines []*normLine
	// free: extra lines after the end cost nothing (a block without a
	// tag ends where the format does).
	free    bool
	cost    func(p *linePat, line int) int8
	scratch *alignScratch
}

// alignScratch is the memory of alignments, reused from one to the next.
type alignScratch struct {
	cost, back []int32
	kind       []stepKind
	queue      []int
	inQueue    []bool
}

// grow returns (*s)[:n], reallocating only when it is too short.
func grow[T any](s *[]T, n int) []T {
	if cap(*s) < n {
		*s = make([]T, n)
	}
	*s = (*s)[:n]
	return *s
}

// align returns the cheapest alignment's moves, in order.
func (a *aligner) align() []step {
	S, L := len(a.prog), len(a.lines)
	sc := a.scratch
	if sc == nil {
		sc = &alignScratch{}
	}
	cost := grow(&sc.cost, (L+1)*S)
	back := grow(&sc.back, (L+1)*S) // the state before, in the row before for consume/extra
	kind := grow(&sc.kind, (L+1)*S)
	for i := range cost {
		cost[i] = inf
	}
	queue := grow(&sc.queue, S)[:0]
	inQueue := grow(&sc.inQueue, S)
	clear(inQueue)
	relax := func(row, from, to int, c int32, k stepKind) {
		if c < cost[row*S+to] {
			cost[row*S+to], back[row*S+to], kind[row*S+to] = c, int32(from), k
			if !inQueue[to] {
				inQueue[to] = true
				queue = append(queue, to)
			}
		}
	}
	closure := func(row int) {
		for s := 0; s < S; s++ {
			if cost[row*S+s] < inf && !inQueue[s] {
				inQueue[s] = true
				queue = append(queue, s)
			}
		}
		for head := 0; head < len(queue); head++ {
			s := queue[head]
			inQueue[s] = false
			c := cost[row*S+s]
			in := &a.prog[s]
			switch in.op {
			case opLine:
				relax(row, s, s+1, c+costMissing, stepSkip)
			case opFork, opJump:
				for _, t := range in.to {
					relax(row, s, t, c, stepEps)
				}
			case opEnter, opIter:
				relax(row, s, s+1, c, stepEps)
			}
		}
		queue = queue[:0]
	}
	cost[0] = 0
	closure(0)
	for i := 0; i < L; i++ {
		row, next := i*S, (i+1)*S
		for s := 0; s < S; s++ {
			c := cost[row+s]
			if c == inf {
				continue
			}
			if a.prog[s].op == opLine {
				if lc := c + int32(a.cost(a.prog[s].pat, i)); lc < cost[next+s+1] {
					cost[next+s+1], back[next+s+1], kind[next+s+1] = lc, int32(s), stepConsume
				}
			}
			ec := c + costExtra
			if a.free && a.prog[s].op == opEnd {
				ec = c
			}
			if ec < cost[next+s] {
				cost[next+s], back[next+s], kind[next+s] = ec, int32(s), stepExtra
			}
		}
		closure(i + 1)
	}
	// Walk back from the end.
	rev := make([]step, 0, 2*L+S)
	row, s := L, S-1
	for row > 0 || s != 0 {
		k := kind[row*S+s]
		from := int(back[row*S+s])
		st := step{kind: k, s: from, line: -1}
		switch k {
		case stepConsume:
			st.line = row - 1
			st.cost = int8(cost[row*S+s] - cost[(row-1)*S+from])
			row--
		case stepExtra:
			st.line = row - 1
			row--
		}
		rev = append(rev, st)
		s = from
	}
	out := make([]step, len(rev))
	for i, st := range rev {
		out[len(rev)-1-i] = st
	}
	return out
}
