package sillytavern

import (
	"strings"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/tokenize"
)

// SillyTavern's budget: after the probability roll, each entry's content and
// a line break are added to the pass's new text, and the entry is dropped —
// and the pass stopped — as soon as the tokens of the earlier passes'
// recursion text plus the new text reach the budget.

// tally is a text built by putting pieces in front (allActivatedText), kept
// as pieces so that growing it costs no copy; chars4, which counts bytes,
// counts it without joining it.
//
// Its count is kept as pieces come in front of it (countText's parts of the
// new piece, the last of them joined with the text's first part when no cut
// falls between them), so a recursion of thousands of passes does not count
// the whole text again at each: that was quadratic in the passes.
type tally struct {
	bytes  int
	tokens int    // countText of the text
	first  string // the text's first part (countText's), and its count
	firstN int
}

func (t *tally) prepend(s string, c tokenize.Counter) {
	t.bytes += len(s)
	if c == nil || c.Name() == tokenize.Chars4 {
		return
	}
	var parts []string
	eachPart(s, func(p string) { parts = append(parts, p) })
	last := len(parts) - 1
	head := 0
	for _, p := range parts[:last] {
		head += c.Count(p)
	}
	switch {
	case t.bytes == len(s): // the first piece
		t.tokens = head + c.Count(parts[last])
	case strings.HasSuffix(s, "\n") && cutBefore(t.first):
		t.tokens += head + c.Count(parts[last])
	default: // no cut: the last part runs into the text's first
		merged := parts[last] + t.first
		n := c.Count(merged)
		t.tokens += head + n - t.firstN
		parts[last] = merged
	}
	t.first = parts[0]
	t.firstN = c.Count(t.first)
}

func (t *tally) count(c tokenize.Counter) int {
	if t.bytes == 0 {
		return 0
	}
	if c.Name() == tokenize.Chars4 {
		return (t.bytes + 3) / 4
	}
	return t.tokens
}

// accept rolls each entry's probability and adds it under the budget, in
// order, until the budget overflows; it returns the entries whose content
// feeds recursion (those that did not fail their roll, the budget's losers
// included, as SillyTavern has it).
//
// SillyTavern counts the whole new text again after each entry. Here every
// entry is rolled first, then the first entry that overflows is found by
// counting prefixes of the new text at doubling, then halving, lengths —
// the same entry as long as a longer prefix never has fewer tokens — and the
// draws of the entries after it, which SillyTavern never rolls, are taken
// back.
func (sc *scan) accept(list []*activation, tokensBefore int) []*entry {
	type try struct {
		before rng // the generator before this entry's roll
		roll   float64
		rolled bool
		failed bool
		end    int // the new text's length with it
	}
	tries := make([]try, len(list))
	var text strings.Builder
	var passed []int // indexes into list
	expanded := make([]string, len(list))
	for i, a := range list {
		e := a.e
		tries[i].before = sc.rng.state()
		if e.useProbability && !e.probabilityIs100 && !sc.timed.isSticky[e.idx] {
			r := sc.rng.next() * 100
			tries[i].roll, tries[i].rolled = r, true
			if !(r <= e.probability) {
				tries[i].failed = true
				continue
			}
		}
		expanded[i] = sc.macros.expand(sc.content[e.idx])
		text.WriteString(expanded[i])
		text.WriteByte('\n')
		tries[i].end = text.Len()
		passed = append(passed, i)
	}
	all := text.String()
	// Entries that ignore the budget never overflow it.
	var checked []int // indexes into passed
	for k, i := range passed {
		if !sc.ignores(list[i].e) {
			checked = append(checked, k)
		}
	}
	over := func(k int) bool {
		return tokensBefore+sc.count(all[:tries[passed[checked[k]]].end]) >= sc.budget
	}
	stop := len(list) // entries SillyTavern gets to before the budget stops it
	brk := -1
	at := "" // the entry the budget overflowed on
	if sc.overflowed && sc.s.v118() && len(list) > 0 {
		// An earlier pass overflowed (a delay level runs after it): 1.18.0
		// admits nothing more but the entries that ignore the budget, and
		// rolls no other; 1.12.6 budgets the pass again as if anew.
		stop, at = 0, sc.dropped.src.ID
		sc.rng.restore(tries[0].before)
	} else if k := firstTrue(len(checked), over); k >= 0 {
		brk = passed[checked[k]]
		stop = brk + 1
		at = list[brk].e.src.ID
		if stop < len(list) {
			sc.rng.restore(tries[stop].before)
		}
	}
	for i := 0; i < stop; i++ {
		a, e := list[i], list[i].e
		if tries[i].failed {
			sc.failedRoll[e.idx] = true
			sc.gate(e, gateProbability, e.rolled(tries[i].roll))
			continue
		}
		sc.content[e.idx] = expanded[i]
		if tries[i].rolled {
			a.roll = tries[i].roll
		}
		if i == brk {
			sc.overflowed = true
			sc.dropped = e
			total := tokensBefore + sc.count(all[:tries[i].end])
			sc.gate(e, gateBudget, e.about(reason.STBudgetOver, "content", reason.P("total", total), reason.P("budget", sc.budget)))
			break
		}
		sc.admit(a)
	}
	// After the overflow SillyTavern rolls and admits only the entries that
	// ignore the budget (a field newer than 1.12.6, which stopped there).
	for _, a := range list[stop:] {
		e := a.e
		if !sc.ignores(e) {
			sc.gate(e, gateBudget, e.about(reason.STBudgetFull, "content", reason.P("budget", sc.budget), reason.P("at", at)))
			continue
		}
		if e.useProbability && !e.probabilityIs100 && !sc.timed.isSticky[e.idx] {
			r := sc.rng.next() * 100
			if !(r <= e.probability) {
				sc.failedRoll[e.idx] = true
				sc.gate(e, gateProbability, e.rolled(r))
				continue
			}
			a.roll = r
		}
		sc.content[e.idx] = sc.macros.expand(sc.content[e.idx])
		sc.admit(a)
	}
	var out []*entry
	for _, a := range list {
		if !sc.failedRoll[a.e.idx] && !a.e.preventRecursion {
			out = append(out, a.e)
		}
	}
	return out
}

// ignores says whether an entry ignores the budget (ignoreBudget, a field
// of 1.13 on: 1.12.6 has none).
func (sc *scan) ignores(e *entry) bool { return e.ignoreBudget && sc.s.v118() }

func (sc *scan) count(s string) int { return countText(sc.counter, s) }

// firstTrue is the smallest k in [0, n) with f(k), for f false then true
// (-1 when f is false throughout), found with O(log n) calls.
func firstTrue(n int, f func(int) bool) int {
	lo, hi := -1, -1 // f(lo) false (or lo = -1), f(hi) true
	for step := 1; ; step *= 2 {
		k := lo + step
		if k >= n {
			k = n - 1
			if k <= lo {
				return -1
			}
			if !f(k) {
				return -1
			}
			hi = k
			break
		}
		if f(k) {
			hi = k
			break
		}
		lo = k
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if f(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// admit puts an entry in the prompt.
func (sc *scan) admit(a *activation) {
	e := a.e
	sc.isActive[e.idx] = true
	sc.byEntry[e.idx] = a
	sc.activated = append(sc.activated, a)
	if e.group != "" {
		if _, ok := sc.holders[e.group]; !ok {
			sc.holders[e.group] = e
		}
	}
}

// rolled says a probability roll failed.
func (e *entry) rolled(roll float64) reason.Reason {
	return e.about(reason.STProbabilityRoll, "probability", reason.P("probability", e.probability), reason.P("roll", roll))
}
