package sillytavern

// Timed effects (sticky, cooldown, delay) as SillyTavern keeps them in the
// chat's metadata between generations: an effect starts at the chat length
// of the generation that set it and lasts while the chat is shorter than
// start + N; a sticky effect that ends puts the entry on cooldown at once.

// effect is one sticky or cooldown effect of one entry.
type effect struct {
	key        string // book name + "." + uid
	entry      int    // entry index, -1 when the book no longer has it
	start, end float64
	protected  bool // set when a sticky effect ended: survives a chat that did not advance
}

// effects is one kind of effect in the order they were set (JavaScript
// object order: the keys are not numbers).
type effects struct {
	list []effect
}

func (es *effects) find(key string) int {
	for i := range es.list {
		if es.list[i].key == key {
			return i
		}
	}
	return -1
}

func (es *effects) remove(i int) { es.list = append(es.list[:i], es.list[i+1:]...) }

func (es *effects) clone() effects { return effects{list: append([]effect(nil), es.list...)} }

// timedState is what carries from one generation to the next.
type timedState struct {
	sticky, cooldown effects
}

func (t *timedState) clone() *timedState {
	return &timedState{sticky: t.sticky.clone(), cooldown: t.cooldown.clone()}
}

// timedScan is the timed effects in force during one generation.
type timedScan struct {
	state    *timedState
	chatLen  float64
	entries  []*entry
	book     string
	isSticky []bool
	isCool   []bool
	isDelay  []bool
}

func newTimedScan(state *timedState, chatLen int, entries []*entry, book string) *timedScan {
	n := len(entries)
	return &timedScan{state: state, chatLen: float64(chatLen), entries: entries, book: book,
		isSticky: make([]bool, n), isCool: make([]bool, n), isDelay: make([]bool, n)}
}

func (t *timedScan) key(e *entry) string { return t.book + "." + e.uid }

// check applies the effects at the start of a generation: it drops the ones
// that ended (a sticky one then starts the entry's cooldown), the ones set by
// a generation at this same chat length (a swipe or a regeneration), and
// marks the entries under sticky, cooldown and delay.
func (t *timedScan) check() {
	t.checkKind(&t.state.sticky, t.isSticky, true)
	t.checkKind(&t.state.cooldown, t.isCool, false)
	for _, e := range t.entries {
		if e.delay != 0 && t.chatLen < e.delay {
			t.isDelay[e.idx] = true
		}
	}
}

func (t *timedScan) checkKind(es *effects, mark []bool, sticky bool) {
	for i := 0; i < len(es.list); i++ {
		ef := es.list[i]
		if t.chatLen <= ef.start && !ef.protected {
			es.remove(i)
			i--
			continue
		}
		if ef.entry < 0 {
			if t.chatLen >= ef.end {
				es.remove(i)
				i--
			}
			continue
		}
		e := t.entries[ef.entry]
		n := e.cooldown
		if sticky {
			n = e.sticky
		}
		if n == 0 {
			es.remove(i)
			i--
			continue
		}
		if t.chatLen >= ef.end {
			es.remove(i)
			i--
			if sticky && e.cooldown != 0 {
				// The cooldown starts now, and counts for this generation.
				t.state.cooldown.set(effect{key: ef.key, entry: ef.entry, start: t.chatLen, end: t.chatLen + e.cooldown, protected: true})
				t.isCool[e.idx] = true
			}
			continue
		}
		mark[e.idx] = true
	}
}

// set replaces the effect with the same key where it is, or adds it at the
// end (a JavaScript property assignment).
func (es *effects) set(ef effect) {
	if i := es.find(ef.key); i >= 0 {
		es.list[i] = ef
		return
	}
	es.list = append(es.list, ef)
}

// record starts the sticky and cooldown effects of the entries activated in
// this generation, unless they already run.
func (t *timedScan) record(activated []*entry) {
	for _, e := range activated {
		k := t.key(e)
		if e.sticky != 0 && t.state.sticky.find(k) < 0 {
			t.state.sticky.list = append(t.state.sticky.list, effect{key: k, entry: e.idx, start: t.chatLen, end: t.chatLen + e.sticky})
		}
		if e.cooldown != 0 && t.state.cooldown.find(k) < 0 {
			t.state.cooldown.list = append(t.state.cooldown.list, effect{key: k, entry: e.idx, start: t.chatLen, end: t.chatLen + e.cooldown})
		}
	}
}
