package reply

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/diag"
)

// maxPairings bounds the search for moved lines (missing lines × extra
// lines); past it, a moved line is reported as missing and extra.
const maxPairings = 1 << 16

// maxCells bounds an alignment (lines × program states): a block longer
// than that is checked up to the line where the bound is reached.
const maxCells = 4 << 20

// align aligns a block's lines with the format and reports every
// difference. end is the offset where the block ends (for a line missing
// at its end); free says the block may end before the lines do.
func (fc *formatCheck) align(lines []*rline, free bool, end int) {
	f := fc.f
	prog := f.prog
	if len(lines)*len(prog) > maxCells {
		n := maxCells / len(prog)
		fc.add(lines[n].start, diag.Info, RuleExtra, f.Pos, "the block is too long to check whole: the lines from here on (%d of %d) are not checked", len(lines)-n, len(lines))
		lines, end = lines[:n], lines[n].start
	}
	memo := grow(&fc.replyCheck.memo, len(f.pats)*len(lines))
	for i := range memo {
		memo[i] = -1
	}
	ns := make([]*normLine, len(lines))
	for i, l := range lines {
		ns[i] = l.n
	}
	a := &aligner{prog: prog, lines: ns, free: free, scratch: &fc.replyCheck.align, cost: func(p *linePat, i int) int8 {
		k := p.id*len(lines) + i
		if memo[k] < 0 {
			memo[k], _ = fc.match(p, lines[i])
		}
		return memo[k]
	}}
	steps := a.align()

	// Where the reply is at each step: the next consumed line's start.
	nextAt := make([]int, len(steps)+1)
	nextAt[len(steps)] = end
	for i := len(steps) - 1; i >= 0; i-- {
		nextAt[i] = nextAt[i+1]
		if steps[i].line >= 0 {
			nextAt[i] = lines[steps[i].line].start
		}
	}

	// Missing lines and extra lines that are one line moved: out of order.
	moved := map[int]int{} // step of a missing line → step of the extra line that is it
	usedExtra := map[int]bool{}
	skips, extras := 0, 0
	for _, st := range steps {
		switch st.kind {
		case stepSkip:
			skips++
		case stepExtra:
			extras++
		}
	}
	for i, st := range steps {
		if st.kind != stepSkip || skips*extras > maxPairings {
			continue
		}
		p := prog[st.s].pat
		for j, x := range steps {
			if x.kind == stepExtra && !usedExtra[j] {
				if c, _ := fc.match(p, lines[x.line]); c == costMatch {
					moved[i], usedExtra[j] = j, true
					break
				}
			}
		}
	}

	// An alternative of a choice written in part: its missing lines are
	// missing lines, not a missing part.
	taken := map[int]bool{} // skip steps of an alternative with a line matched
	for i := 0; i < len(steps); {
		p := stepPat(prog, steps[i])
		if p == nil || p.choice == nil {
			i++
			continue
		}
		j, any := i, false
		for ; j < len(steps); j++ {
			q := stepPat(prog, steps[j])
			if q == nil {
				continue
			}
			if q.choice != p.choice || q.opt != p.opt {
				break
			}
			any = any || steps[j].kind == stepConsume
		}
		for k := i; k < j; k++ {
			taken[k] = any
		}
		i = j
	}

	counts := map[*repeat]*repCount{}
	var order []*repeat
	var prevPat *linePat
	lastChoice := -1 // the step of the last missing line reported as a missing part
	for i, st := range steps {
		in := prog[st.s]
		switch st.kind {
		case stepEps:
			switch in.op {
			case opEnter:
				if c := counts[in.rep]; c != nil {
					fc.checkCount(c)
				} else {
					order = append(order, in.rep)
				}
				counts[in.rep] = &repCount{rep: in.rep, at: nextAt[i]}
			case opIter:
				if c := counts[in.rep]; c != nil {
					c.iters = append(c.iters, 0)
				}
			}
		case stepConsume:
			fc.countLine(counts, st.cost)
			l := lines[st.line]
			if st.cost == costMatch {
				fc.fills(in.pat, l)
			} else if !fc.quiet(in.pat) && !fc.printed[l.start] {
				fc.changed(in.pat, l)
			}
			prevPat = in.pat
		case stepSkip:
			p := in.pat
			if j, ok := moved[i]; ok {
				next := "at the end of the block"
				for k := i + 1; k < len(steps); k++ {
					if steps[k].kind == stepConsume {
						next = fmt.Sprintf("before %q", prog[steps[k].s].pat.show)
						break
					}
				}
				ml := lines[steps[j].line]
				fc.add(ml.start+lead(ml.n.text), diag.Error, RuleOrder, p.pos, "%q is out of order: the format has this line %s", shorten(strings.TrimSpace(ml.n.text), 30), next)
				continue
			}
			if fc.quiet(p) {
				continue
			}
			if ch := p.choice; ch != nil && len(ch.opts) > 1 {
				if !taken[i] {
					if lastChoice >= 0 && i == lastChoice+1 {
						lastChoice = i
						continue
					}
					lastChoice = i
					fc.add(nextAt[i], diag.Error, RulePart, ch.pos, "missing ${%s}: one of %s", ch.part, names(ch.names))
					continue
				}
				fc.add(nextAt[i], diag.Error, RuleLiteral, p.pos, "missing the line %q (of ${%s}: %s)", p.show, ch.part, ch.names[p.opt])
				continue
			}
			fc.add(nextAt[i], diag.Error, RuleLiteral, p.pos, "missing the line %q", p.show)
		case stepExtra:
			if usedExtra[i] {
				continue
			}
			if in.op == opEnd && fc.f.tag == "" {
				continue // after the block
			}
			l := lines[st.line]
			tpl := f.Pos
			if prevPat != nil {
				tpl = prevPat.pos
			}
			if fc.quietLine(l) || fc.printed[l.start] {
				continue
			}
			fc.add(l.start+lead(l.n.text), diag.Error, RuleExtra, tpl, "a line the format does not have: %q", shorten(strings.TrimSpace(l.n.text), 40))
		}
	}
	for _, r := range order {
		fc.checkCount(counts[r])
	}

	if free && f.anchor != nil {
		// A second block: the format's first line again after the block.
		last := -1
		for _, st := range steps {
			if st.kind == stepConsume {
				last = st.line
			}
		}
		for i := last + 1; last >= 0 && i < len(lines); i++ {
			if c, _ := fc.match(f.anchor, lines[i]); c == costMatch {
				fc.add(lines[i].start+lead(lines[i].n.text), diag.Error, RuleTwice, f.anchor.pos, "the %s block starts again here: the format is written once per reply", f.ID)
				break
			}
		}
	}
}

// quiet says whether a template line's problem is already told by a tag
// problem (a tag line of a tag paired wrongly).
func (fc *formatCheck) quiet(p *linePat) bool { return p.tag != "" && fc.badTags[p.tag] }

func (fc *formatCheck) quietLine(l *rline) bool {
	t := strings.TrimSpace(l.n.text)
	for name := range fc.badTags {
		if t == "<"+name+">" || t == "</"+name+">" {
			return true
		}
	}
	return false
}

func lead(s string) int { return len(s) - len(strings.TrimLeft(s, " \t\u3000")) }

func names(ns []string) string {
	if len(ns) > 6 {
		ns = append(ns[:6:6], "…")
	}
	return strings.Join(ns, ", ")
}

// repCount counts a repeat's repetitions: per repetition, the lines of the
// reply it matched.
type repCount struct {
	rep   *repeat
	at    int
	iters []int
}

func (fc *formatCheck) countLine(counts map[*repeat]*repCount, cost int8) {
	if cost > costChanged {
		return
	}
	for _, c := range counts {
		if n := len(c.iters); n > 0 {
			c.iters[n-1]++
		}
	}
}

func (fc *formatCheck) checkCount(c *repCount) {
	if c == nil || c.rep.count == nil {
		return
	}
	n := 0
	for _, x := range c.iters {
		if x > 0 {
			n++
		}
	}
	if n == 0 || c.rep.count.holds(n) {
		return
	}
	fc.add(c.at, diag.Error, RuleLimit, c.rep.cpos, "%d repetitions of the group before `...`; the format asks for %s (%s)", n, c.rep.count.want(), c.rep.count.phrase)
}

// fills checks the filled-in texts of a matching line.
func (fc *formatCheck) fills(p *linePat, l *rline) {
	fc.match(p, l)
	for k, s := range p.segs {
		if s.fill == nil {
			continue
		}
		a, b := fillSpan(p, l.n, fc.at, k)
		text := l.n.text[a:b]
		at := l.start + a
		f := s.fill
		switch {
		case f.dots && (text == "" || text == "..."):
			fc.add(at, diag.Error, RuleUnfilled, f.pos, "`...` is left as it is: the model should continue the pattern here")
		case text == "" && !f.optional:
			fc.add(at, diag.Error, RuleUnfilled, f.pos, "${%s} is empty: nothing is written where the format asks for it", shorten(f.desc, 24))
		case strings.Contains(text, "${"):
			fc.add(at+strings.Index(text, "${"), diag.Error, RuleUnfilled, f.pos, "a ${…} is left in the reply: the model should have written what it describes")
		case !f.dots && f.ndesc != "" && norm(text) == f.ndesc:
			fc.add(at, diag.Error, RuleUnfilled, f.pos, "the description ${%s} is copied instead of filled in", shorten(f.desc, 24))
		case f.limit != nil && !f.merged && !f.limit.holds(f.limit.count(text)):
			fc.add(at, diag.Error, RuleLimit, f.lpos, "%q is %d %s; the format asks for %s (%s)", shorten(text, 16), f.limit.count(text), f.limit.unit, f.limit.want(), f.limit.phrase)
		}
	}
}

// changed reports a line that is its template line written differently.
func (fc *formatCheck) changed(p *linePat, l *rline) {
	_, k := fc.match(p, l)
	if k < 0 {
		return
	}
	s := p.segs[k]
	at := l.start + lead(l.n.text)
	var msg string
	if k == 0 {
		got := prefixRunes(strings.TrimSpace(l.n.text), len([]rune(s.raw)))
		msg = fmt.Sprintf("expected %q, found %q", s.raw, got)
	} else {
		// Where the literal was looked for: after what matched before it.
		a := 0
		if k > 1 && fc.at[k-2] >= 0 {
			a = fc.at[k-2] + len(p.segs[k-2].lit)
		}
		if a < len(l.n.from) {
			at = l.start + int(l.n.from[a])
		}
		msg = fmt.Sprintf("%q is missing here (the line is %q)", s.raw, p.show)
		if k == len(p.segs)-1 {
			msg = fmt.Sprintf("the line should end with %q (it is %q)", s.raw, p.show)
		}
	}
	if ch := p.choice; ch != nil && len(ch.opts) > 1 {
		fc.add(at, diag.Error, RulePart, s.pos, "the line matches none of the alternatives of ${%s} (%s); nearest, %s: %s", ch.part, names(ch.names), ch.names[p.opt], msg)
		return
	}
	fc.add(at, diag.Error, RuleLiteral, s.pos, "%s", msg)
}

func prefixRunes(s string, n int) string {
	rs := []rune(s)
	if len(rs) > n {
		rs = rs[:n]
	}
	return string(rs)
}

// stepPat is the template line a step consumes or skips (nil for others).
func stepPat(prog []inst, st step) *linePat {
	if st.kind == stepConsume || st.kind == stepSkip {
		return prog[st.s].pat
	}
	return nil
}
