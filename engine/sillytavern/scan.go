package sillytavern

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lorekit/lore/tokenize"
)

// scan is one generation's World Info scan: SillyTavern 1.12.6's
// checkWorldInfo, pass after pass (the chat, then recursion, min activations
// and delayed recursion levels), then the budget.
type scan struct {
	s       *Settings
	entries []*entry
	buf     *buffer
	timed   *timedScan
	rng     *rng
	counter tokenize.Counter
	macros  *macros
	chatLen int
	char    string   // character name the filter compares
	tags    []string // character's tags
	keys    [][]string
	second  [][]string
	genType string // generation type

	budget     int
	overflowed bool
	passes     int
	content    []string // each entry's content, macros expanded when accepted
	activated  []*activation
	isActive   []bool
	failedRoll []bool
	byEntry    []*activation
	dropped    *entry     // the entry the budget overflowed on
	text       string     // allActivatedText: recursion texts, newest first
	recursed   [][]*entry // per pass, the entries whose content recursion scans
	chatIndex  []int      // transcript index of each scanned message
	why        []*whyNot
}

// activation is an entry SillyTavern activated, and how.
type activation struct {
	e      *entry
	pass   int    // scan pass (1 = the chat)
	state  int    // scan state of that pass
	reason string // "constant", "@@activate", "sticky", "key"
	key    string // the primary key that matched
	where  string // where it matched (trigger), found on demand
}

func newScan(s *Settings, entries []*entry, chat []string, m *macros, counter tokenize.Counter, maxContext float64) *scan {
	sc := &scan{s: s, entries: entries, buf: newBuffer(chat, s.ScanDepth), counter: counter, macros: m,
		chatLen: len(chat), content: make([]string, len(entries)), isActive: make([]bool, len(entries)),
		failedRoll: make([]bool, len(entries)), byEntry: make([]*activation, len(entries)), keys: make([][]string, len(entries)), second: make([][]string, len(entries)),
		why: make([]*whyNot, len(entries))}
	for i, e := range entries {
		sc.content[i] = e.content
		sc.keys[i] = substituted(e.keys, m)
		sc.second[i] = substituted(e.secondary, m)
	}
	sc.budget = budgetOf(s, maxContext)
	return sc
}

// substituted is each key with its macros expanded and trimmed, "" for a
// key that expands to nothing.
func substituted(keys []string, m *macros) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = jsTrim(m.expand(k))
	}
	return out
}

// run scans until no pass activates anything new.
func (sc *scan) run() {
	levels := sc.delayLevels()
	level := 0.0
	if len(levels) > 0 {
		level, levels = levels[0], levels[1:]
	}
	state := stateInitial
	for state != stateNone {
		if sc.s.MaxRecursionSteps > 0 && sc.s.MaxRecursionSteps <= float64(sc.passes) {
			sc.stoppedAt(sc.passes)
			break
		}
		sc.passes++
		now := sc.pass(state, level)
		next := stateNone
		sticky := func(e *entry) bool { return sc.timed.isSticky[e.idx] }
		sort.SliceStable(now, func(a, b int) bool {
			sa, sb := sticky(now[a].e), sticky(now[b].e)
			if sa != sb {
				return sa
			}
			return now[a].e.idx < now[b].e.idx
		})
		tokensBefore := sc.counter.Count(sc.text)
		list := sc.groups(now, state)
		forRecursion := sc.accept(list, tokensBefore)
		sc.recursed = append(sc.recursed, forRecursion)

		if sc.s.Recursive && !sc.overflowed && len(forRecursion) > 0 {
			next = stateRecursion
		}
		if sc.s.Recursive && !sc.overflowed && state == stateMinActivations && len(sc.buf.recurse) > 0 {
			next = stateRecursion
		}
		if next == stateNone && !sc.overflowed && sc.s.MinActivations > 0 && float64(len(sc.activated)) < sc.s.MinActivations {
			d := sc.s.ScanDepth + sc.buf.skew
			over := sc.s.MinActivationsDepthMax > 0 && d > sc.s.MinActivationsDepthMax || d > float64(sc.chatLen)
			if !over {
				next = stateMinActivations
				sc.buf.skew++
			}
		}
		if next == stateNone && len(levels) > 0 {
			next = stateRecursion
			level, levels = levels[0], levels[1:]
		}
		state = next
		if state != stateNone {
			parts := make([]string, len(forRecursion))
			for i, e := range forRecursion {
				parts[i] = sc.content[e.idx]
			}
			t := strings.Join(parts, "\n")
			sc.buf.addRecurse(t)
			sc.text = t + "\n" + sc.text
		}
	}
}

// delayLevels are the delayUntilRecursion levels in use, ascending.
func (sc *scan) delayLevels() []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, e := range sc.entries {
		if e.delayLevel != 0 && !seen[e.delayLevel] {
			seen[e.delayLevel] = true
			out = append(out, e.delayLevel)
		}
	}
	sort.Float64s(out)
	return out
}

// pass finds the entries that activate in one pass, in sorted order.
func (sc *scan) pass(state int, level float64) []*activation {
	var now []*activation
	for _, e := range sc.entries {
		if sc.failedRoll[e.idx] || sc.isActive[e.idx] {
			continue
		}
		if a := sc.check(e, state, level); a != nil {
			now = append(now, a)
		}
	}
	return now
}

// check decides one entry in one pass; nil (with the gate recorded for
// --explain) when it does not activate.
func (sc *scan) check(e *entry, state int, level float64) *activation {
	act := func(reason, key string) *activation {
		return &activation{e: e, pass: sc.passes, state: state, reason: reason, key: key}
	}
	out := func(g gate, detail string) *activation {
		sc.gate(e, g, detail)
		return nil
	}
	if e.disable {
		return out(gateDisabled, "")
	}
	if len(e.filterNames) > 0 {
		in := contains(e.filterNames, sc.char)
		if e.filterExclude == in {
			return out(gateCharacter, sc.filterDetail(e, "names", e.filterNames))
		}
	}
	if len(e.filterTags) > 0 {
		in := false
		for _, t := range sc.tags {
			in = in || contains(e.filterTags, t)
		}
		if e.filterExclude == in {
			return out(gateCharacter, sc.filterDetail(e, "tags", e.filterTags))
		}
	}
	if !sc.triggered(e) {
		return out(gateTrigger, sc.genType)
	}
	sticky, cool, delay := sc.timed.isSticky[e.idx], sc.timed.isCool[e.idx], sc.timed.isDelay[e.idx]
	if delay {
		return out(gateDelay, "")
	}
	if cool && !sticky {
		return out(gateCooldown, "")
	}
	if state != stateRecursion && e.delayLevel != 0 && !sticky {
		return out(gateDelayRecursion, "")
	}
	if state == stateRecursion && e.delayLevel != 0 && e.delayLevel > level && !sticky {
		return out(gateDelayLevel, fmt.Sprintf("%v (this pass reaches level %v)", e.delayLevel, level))
	}
	if state == stateRecursion && sc.s.Recursive && e.excludeRecursion && !sticky {
		return out(gateExcludeRecursion, "")
	}
	if e.hasDecorator("@@activate") {
		return act("@@activate", "")
	}
	if e.hasDecorator("@@dont_activate") {
		return out(gateDontActivate, "")
	}
	if e.constant {
		return act("constant", "")
	}
	if sticky {
		return act("sticky", "")
	}
	if !e.keysArray || len(e.keys) == 0 {
		return out(gateNoKeys, "")
	}
	w := sc.buf.get(e, state)
	primary := ""
	for _, k := range sc.keys[e.idx] {
		if k != "" && sc.buf.matchKey(w, k, e, sc.s) {
			primary = k
			break
		}
	}
	if primary == "" {
		return out(gateKeys, sc.windowDetail(e, state))
	}
	if !e.selective || len(e.secondary) == 0 {
		return act("key", primary)
	}
	if !sc.secondaryHolds(e, w) {
		return out(gateSecondary, primary)
	}
	return act("key", primary)
}

// secondaryHolds is the selective logic over the secondary keys. An unknown
// logic never holds; an empty key never matches.
func (sc *scan) secondaryHolds(e *entry, w *window) bool {
	logic := logicAndAny
	if e.selectiveLogic != nil {
		logic = int(number(e.selectiveLogic))
		if number(e.selectiveLogic) != float64(logic) {
			logic = -1
		}
	}
	any, all := false, true
	for _, k := range sc.second[e.idx] {
		hit := k != "" && sc.buf.matchKey(w, k, e, sc.s)
		any = any || hit
		all = all && hit
		if logic == logicAndAny && hit || logic == logicNotAll && !hit {
			return true
		}
	}
	return logic == logicNotAny && !any || logic == logicAndAll && all
}

// accept rolls each entry's probability and adds it under the budget, in
// order, until the budget overflows; it returns the entries whose content
// feeds recursion (those that did not fail their roll, the budget's losers
// included, as SillyTavern has it).
func (sc *scan) accept(list []*activation, tokensBefore int) []*entry {
	var newContent strings.Builder
	for i, a := range list {
		e := a.e
		if e.useProbability && !e.probabilityIs100 && !sc.timed.isSticky[e.idx] {
			roll := sc.rng.next() * 100
			if !(roll <= e.probability) {
				sc.failedRoll[e.idx] = true
				sc.gate(e, gateProbability, fmt.Sprintf("rolled %.2f, needed %v or less", roll, e.probability))
				continue
			}
		}
		sc.content[e.idx] = sc.macros.expand(sc.content[e.idx])
		newContent.WriteString(sc.content[e.idx])
		newContent.WriteByte('\n')
		total := tokensBefore + sc.counter.Count(newContent.String())
		if total >= sc.budget {
			sc.overflowed = true
			sc.dropped = e
			sc.gate(e, gateBudget, fmt.Sprintf("%d tokens with it, the budget is %d", total, sc.budget))
			for _, rest := range list[i+1:] {
				sc.gate(rest.e, gateBudget, fmt.Sprintf("the budget (%d tokens) was already full at %s", sc.budget, e.src.ID))
			}
			break
		}
		sc.isActive[e.idx] = true
		sc.byEntry[e.idx] = a
		sc.activated = append(sc.activated, a)
	}
	var out []*entry
	for _, a := range list {
		if !sc.failedRoll[a.e.idx] && !a.e.preventRecursion {
			out = append(out, a.e)
		}
	}
	return out
}

// triggered says whether the entry is for this generation type (the newer
// "triggers" field; empty means every type).
func (sc *scan) triggered(e *entry) bool {
	if len(e.triggers) == 0 || sc.genType == "" {
		return true
	}
	return contains(e.triggers, sc.genType)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
