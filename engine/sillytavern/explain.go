package sillytavern

import (
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/reason"
)

// gate is one of the checks SillyTavern makes, in its order, that can keep
// an entry out.
type gate int

const (
	gateDisabled gate = iota + 1
	gateCharacter
	gateTrigger
	gateDelay
	gateCooldown
	gateDelayRecursion
	gateDelayLevel
	gateExcludeRecursion
	gateDontActivate
	gateNoKeys
	gateKeys
	gateSecondary
	gateGroup
	gateProbability
	gateBudget
	gateStopped
)

// whyNot is what kept an entry out, pass by pass: the first gate it met,
// then each different reason of a later pass.
type whyNot struct {
	reasons []reason.Reason
	gates   []gate // the gate of each reason
}

// gate records that e met gate g for reason r in this pass.
func (sc *scan) gate(e *entry, g gate, r reason.Reason) {
	w := sc.why[e.idx]
	if w == nil {
		w = &whyNot{}
		sc.why[e.idx] = w
	}
	if n := len(w.gates); n > 0 && w.gates[n-1] == g && (g == gateKeys || w.reasons[n-1].Same(r)) {
		return // Same leaves the pass out
	}
	if sc.passes > 1 {
		r = r.With(sc.passParams()...)
	}
	w.reasons = append(w.reasons, r)
	w.gates = append(w.gates, g)
}

// passParams say which scan pass after the first one a reason is from, and
// what it matched against.
func (sc *scan) passParams() []reason.Param {
	if sc.buf.skew > 0 && len(sc.buf.recurse) == 0 {
		return []reason.Param{reason.P("pass", sc.passes), reason.P("passKind", "min-activations"),
			reason.P("passScanDepth", sc.s.ScanDepth+sc.buf.skew)}
	}
	return []reason.Param{reason.P("pass", sc.passes), reason.P("passKind", "recursion")}
}

// about is a reason about field k of e (its SillyTavern name), at that
// field in the file the book was read from.
func (e *entry) about(code reason.Code, k string, params ...reason.Param) reason.Reason {
	f := e.st.Field(k)
	return reason.New(code, f.Name, f.Pos, params...)
}

// says is a reason that names field k of e and its value, in the words of
// the file the book was read from (disable: true, enabled: false).
func (e *entry) says(code reason.Code, k string) reason.Reason {
	f := e.st.Field(k)
	return reason.New(code, f.Name, f.Pos, reason.P("field", f.Name), reason.P("value", f.Value))
}

// logicName is a selective logic by its name, "" for one SillyTavern does
// not know.
func logicName(v any) string {
	names := []string{"AND_ANY", "NOT_ALL", "NOT_ANY", "AND_ALL"}
	if v == nil {
		return names[0]
	}
	n := formats.JSNumber(v)
	if n >= 0 && n < 4 && n == float64(int(n)) {
		return names[int(n)]
	}
	return ""
}

// filterReason says whom the character filter lets in.
func (sc *scan) filterReason(e *entry, what string, list []string) reason.Reason {
	mode := "only"
	if e.filterExclude {
		mode = "not"
	}
	return e.about(reason.STCharacterFilter, "characterFilter", reason.P("mode", mode), reason.P("what", what),
		reason.P("list", list), reason.P("character", sc.char), reason.P("tags", sc.tags))
}

// noKeyMatched says what an entry's keys were matched against, and which
// were there only inside other words.
func (sc *scan) noKeyMatched(e *entry, state int) reason.Reason {
	d := sc.buf.depth(e)
	k := noKeyWindow{depth: d, own: e.scanDepth != nil}
	if d > 0 {
		k.messages, k.authorsNote = min(int(min(d, maxScanDepth)), len(sc.buf.chat)), len(sc.buf.inject) > 0
		k.recursion = len(sc.buf.recurse) > 0 && state != stateMinActivations
	}
	ps, ok := sc.windows[k]
	if !ok {
		ps = reason.Params{reason.P("depth", d), reason.P("own", k.own)}
		if d > 0 {
			ps = append(ps, reason.P("messages", k.messages), reason.P("authorsNote", k.authorsNote), reason.P("recursion", k.recursion))
		}
		if sc.windows == nil {
			sc.windows = map[noKeyWindow]reason.Params{}
		}
		sc.windows[k] = ps
	}
	if inside := sc.insideWords(e); d > 0 && len(inside) > 0 {
		ps = append(ps[:len(ps):len(ps)], reason.P("inside", inside))
	}
	return e.about(reason.STNoKeyMatched, "key", ps...)
}

// noKeyWindow is what an entry's keys were matched against; the entries
// matched against one window share its reason's params (scan.windows).
type noKeyWindow struct {
	depth                  float64
	own                    bool
	messages               int
	authorsNote, recursion bool
}

// insideWords names the keys that were in the window only inside other
// words, which whole-word matching does not count.
func (sc *scan) insideWords(e *entry) []string {
	d := sc.buf.depth(e)
	if !(d > 0) {
		return nil
	}
	n := sc.buf.messages(d)
	var keys []string
	for _, r := range sc.keys.primary[e.idx] {
		if r.pat < 0 || !r.whole {
			continue
		}
		plain := r
		plain.whole = false
		if sc.found.has(plain, n, true, e.sources) && !sc.found.has(r, n, true, e.sources) {
			keys = append(keys, r.text)
		}
	}
	return keys
}

// stoppedAt records, for the entries still out, that the scan stopped at
// maxRecursionSteps.
func (sc *scan) stoppedAt(passes int) {
	for _, e := range sc.entries {
		if !sc.isActive[e.idx] && !sc.failedRoll[e.idx] {
			sc.gate(e, gateStopped, reason.Reason{Code: reason.STStopped,
				Params: reason.Params{reason.P("passes", passes), reason.P("max", sc.s.MaxRecursionSteps)}})
		}
	}
}
