package sillytavern

import (
	"sort"
	"strings"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/tokenize"
)

// scan is one generation's World Info scan: SillyTavern 1.18.0's (or
// 1.12.6's, Settings.Version) checkWorldInfo, pass after pass (the chat, then recursion, min activations
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
	keys    *keySet
	found   *found
	genType string // generation type
	forced  []bool // activated from outside (forceActivate), by entry
	forcedN []int  // those entries' indexes

	budget     int
	overflowed bool
	passes     int
	content    []string // each entry's content, macros expanded when accepted
	activated  []*activation
	isActive   []bool
	failedRoll []bool
	byEntry    []*activation
	holders    map[string]*entry // group field → an activated entry with it
	delayed    []int             // entries with a delay level
	seen       []bool            // scratch for candidates
	dropped    *entry            // the entry the budget overflowed on
	text       tally             // allActivatedText: recursion texts, newest first
	recursed   [][]*entry        // per pass, the entries whose content recursion scans
	chatIndex  []int             // transcript index of each scanned message (-1: the greeting)
	injectRefs []string          // how the trace names each scanned injection
	greeting   string            // the greeting's entry id
	why        []*whyNot
	clock      *match.RegexClock             // times the regular-expression keys
	windows    map[noKeyWindow]reason.Params // noKeyMatched's params, by window
}

// activation is an entry SillyTavern activated, and how.
type activation struct {
	e      *entry
	pass   int     // scan pass (1 = the chat)
	state  int     // scan state of that pass
	reason string  // "constant", "@@activate", "external", "sticky", "key"
	key    string  // the primary key that matched
	where  string  // where it matched (trigger), found on demand
	roll   float64 // the probability roll it passed, -1 for none
}

func newScan(s *Settings, entries []*entry, ks *keySet, chat, inject, sources []string, m *macros, counter tokenize.Counter, maxContext float64) *scan {
	sc := &scan{s: s, entries: entries, buf: newBuffer(chat, s.ScanDepth), counter: counter, macros: m, keys: ks,
		chatLen: len(chat), content: make([]string, len(entries)), isActive: make([]bool, len(entries)),
		failedRoll: make([]bool, len(entries)), byEntry: make([]*activation, len(entries)), holders: map[string]*entry{},
		why: make([]*whyNot, len(entries)), clock: match.NewRegexClock()}
	sc.buf.inject = inject
	sc.seen = make([]bool, len(entries))
	for i, e := range entries {
		sc.content[i] = e.content
		if e.delayLevel != 0 {
			sc.delayed = append(sc.delayed, i)
		}
	}
	sc.found = newFound(ks.ix, chat, inject, sources)
	sc.buf.sources = sources
	sc.budget = budgetOf(s, maxContext)
	return sc
}

// hit says whether a key matches in the entry's window.
func (sc *scan) hit(r keyRef, e *entry, state int) bool {
	d := sc.buf.depth(e)
	if r.regex != nil {
		return r.regex.test(sc.buf.get(e, state).text, sc.clock)
	}
	if r.pat < 0 || !(d > 0) {
		return false
	}
	return sc.found.has(r, sc.buf.messages(d), state != stateMinActivations, e.sources)
}

// run scans until no pass activates anything new.
func (sc *scan) run() {
	levels := sc.delayLevels()
	level := 0.0
	if len(levels) > 0 {
		level, levels = levels[0], levels[1:]
	}
	state := stateInitial
	full := true // the next pass checks every entry
	var fresh []int
	var retry []*activation
	for state != stateNone {
		if sc.s.MaxRecursionSteps > 0 && sc.s.MaxRecursionSteps <= float64(sc.passes) {
			sc.stoppedAt(sc.passes)
			break
		}
		sc.passes++
		var now []*activation
		if full {
			now = sc.pass(state, level)
		} else {
			now = sc.passOver(sc.candidates(fresh, retry), state, level)
		}
		next := stateNone
		sticky := func(e *entry) bool { return sc.timed.isSticky[e.idx] }
		sort.SliceStable(now, func(a, b int) bool {
			sa, sb := sticky(now[a].e), sticky(now[b].e)
			if sa != sb {
				return sa
			}
			return sc.sortIndex(now[a]) < sc.sortIndex(now[b])
		})
		tokensBefore := sc.text.count(sc.counter)
		list := sc.groups(now, state)
		forRecursion := sc.accept(list, tokensBefore)
		sc.recursed = append(sc.recursed, forRecursion)
		if sc.s.v118() {
			// 1.18.0 activates a copy of a forced entry: its failed roll
			// marks the copy, and the entry is forced, and rolled, again
			// in the next pass.
			for _, i := range sc.forcedN {
				sc.failedRoll[i] = false
			}
		}
		retry = retry[:0]
		for _, a := range now {
			if !sc.isActive[a.e.idx] && !sc.failedRoll[a.e.idx] {
				retry = append(retry, a)
			}
		}
		wasMin := state == stateMinActivations

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
		// A recursion pass can only change the outcome of the entries the new
		// recursion text names, those with a regular expression or a delay
		// level, and those that matched but lost to a group or the budget;
		// any other pass widens the window for all.
		full = state != stateRecursion || wasMin
		if state != stateNone {
			parts := make([]string, len(forRecursion))
			for i, e := range forRecursion {
				parts[i] = sc.content[e.idx]
			}
			t := strings.Join(parts, "\n")
			fresh = nil
			// 1.18.0 adds no empty recursion text (1.12.6 did: an empty
			// text still made the recursion window non-empty and put a
			// line break into the budget's count).
			if t != "" || !sc.s.v118() {
				sc.buf.recurse = append(sc.buf.recurse, t)
				fresh = sc.found.addRecurse(sc.keys.ix, t, forRecursion, parts)
				sc.text.prepend(t+"\n", sc.counter)
			}
		}
	}
}

// sortIndex is where an activation sorts among the pass's, after the
// sticky ones: its entry's place, but 1.18.0 puts forced entries first (the
// copies it activates are not in its sorted list: indexOf gives -1).
func (sc *scan) sortIndex(a *activation) int {
	if a.reason == "external" && sc.s.v118() {
		return -1
	}
	return a.e.idx
}

// force marks the entries forceActivate names: by uid (compared as
// numbers when both are numbers, as the oracle compares them), or by lore's
// entry id.
func (sc *scan) force(uids []string) {
	if len(uids) == 0 {
		return
	}
	num := func(s string) (float64, bool) {
		if jsTrim(s) == "" {
			return 0, false
		}
		f := formats.JSNumber(s)
		return f, f == f
	}
	names := make(map[string]bool, len(uids))
	nums := map[float64]bool{}
	for _, u := range uids {
		names[u] = true
		if f, ok := num(u); ok {
			nums[f] = true
		}
	}
	sc.forced = make([]bool, len(sc.entries))
	for i, e := range sc.entries {
		f, isNum := num(e.uid)
		if names[e.uid] || names[e.src.ID] || isNum && nums[f] {
			sc.forced[i] = true
			sc.forcedN = append(sc.forcedN, i)
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

// passOver is pass over some entries only (indexes, ascending).
func (sc *scan) passOver(idx []int, state int, level float64) []*activation {
	var now []*activation
	for _, i := range idx {
		e := sc.entries[i]
		if sc.failedRoll[i] || sc.isActive[i] {
			continue
		}
		if a := sc.check(e, state, level); a != nil {
			now = append(now, a)
		}
	}
	return now
}

// candidates are the entries a recursion pass must look at again: those
// whose keys the new recursion text holds, those with a regular-expression
// key or a delay level, and the last pass's matches that a group or the
// budget left out; in sorted order.
func (sc *scan) candidates(fresh []int, retry []*activation) []int {
	var out []int
	mark := func(i int) {
		if !sc.seen[i] {
			sc.seen[i] = true
			out = append(out, i)
		}
	}
	for _, p := range fresh {
		for _, i := range sc.keys.owners[p] {
			mark(int(i))
		}
	}
	for _, i := range sc.keys.regexed {
		mark(i)
	}
	for _, i := range sc.delayed {
		mark(i)
	}
	for _, i := range sc.forcedN {
		mark(i)
	}
	for _, a := range retry {
		mark(a.e.idx)
	}
	for _, i := range out {
		sc.seen[i] = false
	}
	sort.Ints(out)
	return out
}

// check decides one entry in one pass; nil (with the gate recorded for
// --explain) when it does not activate.
func (sc *scan) check(e *entry, state int, level float64) *activation {
	act := func(reason, key string) *activation {
		return &activation{e: e, pass: sc.passes, state: state, reason: reason, key: key, roll: -1}
	}
	out := func(g gate, r reason.Reason) *activation {
		sc.gate(e, g, r)
		return nil
	}
	if e.disable {
		return out(gateDisabled, e.says(reason.STDisabled, "disable"))
	}
	if len(e.filterNames) > 0 {
		in := contains(e.filterNames, sc.char)
		if e.filterExclude == in {
			return out(gateCharacter, sc.filterReason(e, "names", e.filterNames))
		}
	}
	if len(e.filterTags) > 0 {
		in := false
		for _, t := range sc.tags {
			in = in || contains(e.filterTags, t)
		}
		if e.filterExclude == in {
			return out(gateCharacter, sc.filterReason(e, "tags", e.filterTags))
		}
	}
	if !sc.triggered(e) {
		return out(gateTrigger, e.about(reason.STTriggers, "triggers", reason.P("triggers", e.triggers), reason.P("type", sc.genType)))
	}
	sticky, cool, delay := sc.timed.isSticky[e.idx], sc.timed.isCool[e.idx], sc.timed.isDelay[e.idx]
	if delay {
		return out(gateDelay, e.about(reason.STDelay, "delay", reason.P("delay", e.delay), reason.P("messages", sc.chatLen)))
	}
	if cool && !sticky {
		return out(gateCooldown, sc.cooldownReason(e))
	}
	if state != stateRecursion && e.delayLevel != 0 && !sticky {
		return out(gateDelayRecursion, e.about(reason.STDelayRecursion, "delayUntilRecursion", reason.P("level", e.delayLevel)))
	}
	if state == stateRecursion && e.delayLevel != 0 && e.delayLevel > level && !sticky {
		return out(gateDelayLevel, e.about(reason.STDelayLevel, "delayUntilRecursion", reason.P("level", e.delayLevel), reason.P("reached", level)))
	}
	if state == stateRecursion && sc.s.Recursive && e.excludeRecursion && !sticky {
		return out(gateExcludeRecursion, e.about(reason.STExcludeRecursion, "excludeRecursion"))
	}
	if e.hasDecorator("@@activate") {
		return act("@@activate", "")
	}
	if e.hasDecorator("@@dont_activate") {
		return out(gateDontActivate, e.about(reason.STDontActivate, "content"))
	}
	forced := sc.forced != nil && sc.forced[e.idx]
	if forced && sc.s.v118() {
		return act("external", "")
	}
	if e.constant {
		return act("constant", "")
	}
	if forced { // 1.12.6 looks after constant
		return act("external", "")
	}
	if sticky {
		return act("sticky", "")
	}
	if !e.keysArray || len(e.keys) == 0 {
		return out(gateNoKeys, e.about(reason.STNoKeys, "key"))
	}
	primary := ""
	for _, r := range sc.keys.primary[e.idx] {
		if r.text != "" && sc.hit(r, e, state) {
			primary = r.text
			break
		}
	}
	if primary == "" {
		return out(gateKeys, sc.noKeyMatched(e, state))
	}
	if !e.selective || len(e.secondary) == 0 {
		return act("key", primary)
	}
	if !sc.secondaryHolds(e, state) {
		return out(gateSecondary, sc.secondaryReason(e, primary, state))
	}
	return act("key", primary)
}

// cooldownReason says until when an entry is on cooldown.
func (sc *scan) cooldownReason(e *entry) reason.Reason {
	if i := sc.timed.state.cooldown.find(sc.timed.key(e)); i >= 0 {
		return e.about(reason.STCooldown, "cooldown", reason.P("until", sc.timed.state.cooldown.list[i].end), reason.P("messages", sc.chatLen))
	}
	return e.about(reason.STCooldownBare, "cooldown")
}

// secondaryReason says which secondary keys matched where the primary key
// did, and which did not, under the entry's selective logic.
func (sc *scan) secondaryReason(e *entry, primary string, state int) reason.Reason {
	name := logicName(e.selectiveLogic)
	if name == "" {
		return e.about(reason.STSecondaryUnknown, "selectiveLogic", reason.P("key", primary), reason.P("logic", e.selectiveLogic))
	}
	var matched, missing []string
	for _, r := range sc.keys.secondary[e.idx] {
		if r.text == "" {
			continue
		}
		if sc.hit(r, e, state) {
			matched = append(matched, r.text)
		} else {
			missing = append(missing, r.text)
		}
	}
	return e.about(reason.STSecondaryFails, "keysecondary", reason.P("key", primary), reason.P("logic", name), reason.P("holds", false),
		reason.P("in", "scanned-text"), reason.P("matched", matched), reason.P("missing", missing))
}

// secondaryHolds is the selective logic over the secondary keys. An unknown
// logic never holds; an empty key never matches.
func (sc *scan) secondaryHolds(e *entry, state int) bool {
	logic := logicAndAny
	if e.selectiveLogic != nil {
		logic = int(formats.JSNumber(e.selectiveLogic))
		if formats.JSNumber(e.selectiveLogic) != float64(logic) {
			logic = -1
		}
	}
	any, all := false, true
	for _, r := range sc.keys.secondary[e.idx] {
		hit := r.text != "" && sc.hit(r, e, state)
		any = any || hit
		all = all && hit
		if logic == logicAndAny && hit || logic == logicNotAll && !hit {
			return true
		}
	}
	return logic == logicNotAny && !any || logic == logicAndAll && all
}

// triggered says whether the entry is for this generation type (the newer
// "triggers" field; empty means every type).
func (sc *scan) triggered(e *entry) bool {
	if len(e.triggers) == 0 || sc.genType == "" || !sc.s.v118() { // 1.12.6 has no triggers
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

// stoppedKeys phrases, for Result.Limits, each regular-expression key the
// generation's clock stopped, once per entry that has it.
func (sc *scan) stoppedKeys() []string {
	var out []string
	for _, st := range sc.clock.Stopped() {
		for i, e := range sc.entries {
			for _, refs := range [][]keyRef{sc.keys.primary[i], sc.keys.secondary[i]} {
				if hasRegexKey(refs, st.Keyword) {
					out = append(out, render.StoppedRegex(e.src, st))
					break
				}
			}
		}
	}
	return out
}

func hasRegexKey(refs []keyRef, kw string) bool {
	for _, r := range refs {
		if r.regex != nil && r.text == kw {
			return true
		}
	}
	return false
}
