package sillytavern

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/formats"
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
	reasons []string
	gates   []gate // the gate of each reason
	last    gate
	said    string
}

func (sc *scan) gate(e *entry, g gate, detail string) {
	w := sc.why[e.idx]
	if w == nil {
		w = &whyNot{}
		sc.why[e.idx] = w
	}
	s := sc.sentence(e, g, detail)
	if w.last == g && (w.said == s || g == gateKeys) {
		return
	}
	w.last, w.said = g, s
	if sc.passes > 1 {
		s = fmt.Sprintf("pass %d (%s): %s", sc.passes, sc.passName(), s)
	}
	w.reasons = append(w.reasons, s)
	w.gates = append(w.gates, g)
}

// passName says what a scan pass after the first one matched against.
func (sc *scan) passName() string {
	if sc.buf.skew > 0 && len(sc.buf.recurse) == 0 {
		return fmt.Sprintf("min activations, scan depth %v", sc.s.ScanDepth+sc.buf.skew)
	}
	return "recursion"
}

func (sc *scan) sentence(e *entry, g gate, detail string) string {
	switch g {
	case gateDisabled:
		return "disabled (disable: true)"
	case gateCharacter:
		return "character filter: " + detail
	case gateTrigger:
		return fmt.Sprintf("triggers %s do not include this generation's type (%s)", strings.Join(e.triggers, ", "), detail)
	case gateDelay:
		return fmt.Sprintf("delay %v: the chat has %d messages, fewer than %v", e.delay, sc.chatLen, e.delay)
	case gateCooldown:
		if i := sc.timed.state.cooldown.find(sc.timed.key(e)); i >= 0 {
			return fmt.Sprintf("on cooldown until the chat has %v messages (it has %d)", sc.timed.state.cooldown.list[i].end, sc.chatLen)
		}
		return "on cooldown"
	case gateDelayRecursion:
		return fmt.Sprintf("delayUntilRecursion %v: it can only activate in a recursion pass", e.delayLevel)
	case gateDelayLevel:
		return "delayUntilRecursion level " + detail
	case gateExcludeRecursion:
		return "excludeRecursion: it is not matched against recursion passes"
	case gateDontActivate:
		return "@@dont_activate: its content starts with that decorator"
	case gateNoKeys:
		return "no primary keys, and it is not constant"
	case gateKeys:
		return "no primary key matched " + detail + sc.insideWords(e)
	case gateSecondary:
		return fmt.Sprintf("primary key %q matched, but the secondary keys do not satisfy %s", detail, logicName(e.selectiveLogic))
	case gateGroup:
		return "inclusion group " + detail
	case gateProbability:
		return fmt.Sprintf("probability %v%%: %s", e.probability, detail)
	case gateBudget:
		return "left out by the budget: " + detail
	case gateStopped:
		return detail
	}
	return detail
}

func logicName(v any) string {
	names := []string{"AND_ANY", "NOT_ALL", "NOT_ANY", "AND_ALL"}
	if v == nil {
		return names[0]
	}
	n := formats.JSNumber(v)
	if n >= 0 && n < 4 && n == float64(int(n)) {
		return names[int(n)]
	}
	return fmt.Sprintf("the unknown logic %v", v)
}

func (sc *scan) filterDetail(e *entry, what string, list []string) string {
	mode := "only for"
	if e.filterExclude {
		mode = "not for"
	}
	who := fmt.Sprintf("the character %q", sc.char)
	if what == "tags" {
		who = fmt.Sprintf("a character tagged %s", strings.Join(sc.tags, ", "))
		if len(sc.tags) == 0 {
			who = "a character without tags"
		}
	}
	return fmt.Sprintf("%s %s %s; this is %s", mode, what, strings.Join(list, ", "), who)
}

// windowDetail says what an entry's keys were matched against.
func (sc *scan) windowDetail(e *entry, state int) string {
	d := sc.buf.depth(e)
	own := ""
	if e.scanDepth != nil {
		own = " (its own)"
	}
	if d <= 0 {
		return fmt.Sprintf("(scan depth %v%s: nothing is scanned)", d, own)
	}
	var parts []string
	n := min(int(min(d, maxScanDepth)), len(sc.buf.chat))
	switch n {
	case 0:
		parts = append(parts, "no messages")
	case 1:
		parts = append(parts, "the newest message")
	default:
		parts = append(parts, fmt.Sprintf("the %d newest messages", n))
	}
	if len(sc.buf.inject) > 0 {
		parts = append(parts, "the Author's Note")
	}
	if len(sc.buf.recurse) > 0 && state != stateMinActivations {
		parts = append(parts, "the recursion text")
	}
	return fmt.Sprintf("in %s (scan depth %v%s)", strings.Join(parts, ", "), d, own)
}

// insideWords names the keys that were in the window only inside other
// words, which whole-word matching does not count.
func (sc *scan) insideWords(e *entry) string {
	d := sc.buf.depth(e)
	if !(d > 0) {
		return ""
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
			keys = append(keys, fmt.Sprintf("%q", r.text))
		}
	}
	if len(keys) == 0 {
		return ""
	}
	return fmt.Sprintf("; %s occurs only inside other words, and whole words are on (matchWholeWords)", strings.Join(keys, ", "))
}

// stoppedAt records, for the entries still out, that the scan stopped at
// maxRecursionSteps.
func (sc *scan) stoppedAt(passes int) {
	for _, e := range sc.entries {
		if !sc.isActive[e.idx] && !sc.failedRoll[e.idx] {
			sc.gate(e, gateStopped, fmt.Sprintf("the scan stopped after %d passes (maxRecursionSteps %v)", passes, sc.s.MaxRecursionSteps))
		}
	}
}
