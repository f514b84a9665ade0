package lore

import (
	"sort"
	"strconv"
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// windowGroup sums the scan window up for one matcher group, for each mode
// (0: every occurrence, 1: those at word boundaries).
type windowGroup struct {
	n     [2]int      // occurrences
	last  [2]int      // the newest message with one, -1 for none
	first [2][2]int   // the first occurrence in that message
	msgs  [2][]int    // the messages with one, ascending
	older [2]olderHit // the newest message before the window with one
	want  uint8       // the modes some inactive entry looks for before the window
	found uint8       // the modes found there
}

// olderHit is an occurrence before the scan window (for explanations).
type olderHit struct {
	msg   int // -1 for none
	first [2]int
}

// chatTrigger is the scan window's verdict on an entry whose primary matched.
type chatTrigger struct {
	msg  int       // the newest message with a primary hit
	hit  match.Hit // the first primary hit in it
	hits int       // primary hits in the whole window
	msgs [][]int   // the messages with a primary hit, one ascending list per keyword group
	sec  []int     // secondary keywords matched in the window
}

// group returns the window summary of group g, or nil when g did not occur.
func (a *activator) group(g int) *windowGroup {
	if g < 0 || a.winSlot == nil || a.winSlot[g] < 0 {
		return nil
	}
	return &a.win[a.winSlot[g]]
}

func (a *activator) groupOrNew(g int) *windowGroup {
	if a.winSlot[g] < 0 {
		a.winSlot[g] = int32(len(a.win))
		a.win = append(a.win, windowGroup{last: [2]int{-1, -1}, older: [2]olderHit{{msg: -1}, {msg: -1}}})
	}
	return &a.win[a.winSlot[g]]
}

// chat scans the last `window` messages, each once, then lets every entry
// look its keywords up in the window's summary.
func (a *activator) chat(window int) {
	a.winSlot = make([]int32, a.matcher.NumGroups())
	for g := range a.winSlot {
		a.winSlot[g] = -1
	}
	start := max(len(a.msgs)-max(window, 0), 0)
	for mi := start; mi < len(a.msgs); mi++ {
		touched := a.tallyText(a.msgs[mi].Content)
		for _, g := range touched {
			t, wg := &a.tally[g], a.groupOrNew(g)
			for mode := range 2 {
				if n := t.count(mode); n > 0 {
					wg.n[mode] += n
					wg.last[mode], wg.first[mode] = mi, t.firstOf(mode)
					wg.msgs[mode] = append(wg.msgs[mode], mi)
				}
			}
		}
		a.clearTally(touched)
	}
	for i, e := range a.book.Entries {
		st := &a.st[i]
		if !st.eligible {
			continue
		}
		if st.byKeywords {
			a.chatTrigger(i)
		}
		switch {
		case st.chat != nil:
			t := st.chat
			st.active = &render.Activated{Entry: e, Level: 0, Hits: t.hits, LastMessage: t.msg,
				Trigger: render.Trigger{Keyword: a.keywordOf(a.book, t.hit), In: "message:" + strconv.Itoa(t.msg)}}
		case e.AlwaysSend:
			st.active = &render.Activated{Entry: e, Trigger: render.Trigger{In: "always"}, LastMessage: -1}
		}
	}
}

// chatTrigger decides whether entry i's primary matched in the window and its
// secondary logic holds there, and records why.
func (a *activator) chatTrigger(i int) {
	st := &a.st[i]
	t := chatTrigger{msg: -1}
	for _, p := range a.primaries[i] {
		mode := a.mode(p)
		wg := a.group(a.matcher.PatternGroup(p))
		if wg == nil || wg.n[mode] == 0 {
			continue
		}
		t.hits += wg.n[mode]
		t.msgs = append(t.msgs, wg.msgs[mode])
		h := match.Hit{Pattern: p, Start: wg.first[mode][0], End: wg.first[mode][1]}
		if wg.last[mode] > t.msg || wg.last[mode] == t.msg && earlierHit(h, t.hit) {
			t.msg, t.hit = wg.last[mode], h
		}
	}
	if t.hits == 0 {
		return
	}
	// Secondary keywords count wherever they are in the window, like the
	// primary; a keyword itself never spans two messages.
	if st.nSecondary > 0 {
		t.sec = a.secondariesIn(i, func(g, mode int) bool {
			wg := a.group(g)
			return wg != nil && wg.n[mode] > 0
		})
		if !a.secondaryHolds(i, t.sec) {
			st.secMiss = a.keywordHit(reason.LoreSecondaryFails, t.hit, append([]reason.Param{reason.P("message", t.msg),
				reason.P("excerpt", snippet(a.msgs[t.msg].Content, t.hit.Start, t.hit.End))},
				a.secondaryParams(i, t.sec, false, "scan-window")...)...)
			return
		}
	}
	st.chat = &t
}

// secondariesIn lists entry i's secondary keywords (by index, ascending) that
// occur in a text, as told by occurs(group, mode).
func (a *activator) secondariesIn(i int, occurs func(g, mode int) bool) []int {
	var sec []int
	for _, p := range a.secPatterns[i] {
		g := a.matcher.PatternGroup(p)
		if g < 0 {
			continue
		}
		if kw := a.refs[p].kw; occurs(g, a.mode(p)) && !containsInt(sec, kw) {
			sec = append(sec, kw)
		}
	}
	sort.Ints(sec)
	return sec
}

// secondaryHolds applies the entry's secondary logic to the secondary
// keywords matched in the same text as its primary.
func (a *activator) secondaryHolds(i int, sec []int) bool {
	n := a.st[i].nSecondary
	if n == 0 {
		return true
	}
	switch strings.ToUpper(a.book.Entries[i].SecondaryKeywordLogic) {
	case schema.AndAll:
		return len(sec) == n
	case schema.NotAny:
		return len(sec) == 0
	case schema.NotAll:
		return len(sec) < n
	default: // AND_ANY, the default
		return len(sec) > 0
	}
}

// olderScanLimit bounds how far back beforeWindow looks: it only improves an
// explanation, and must not make a long chat slow to render.
const olderScanLimit = 1000

// beforeWindow looks, newest first, at messages older than the scan window
// for keywords of entries that are out, so the explanation can say "it
// matched, but before the window" — the usual surprise when a long chat
// stops sending an entry. Secondary keywords are not checked here.
func (a *activator) beforeWindow(window int) {
	if window <= 0 || len(a.msgs) <= window {
		return
	}
	want := 0 // groups some inactive entry waits for
	for i := range a.st {
		if !a.st[i].byKeywords || a.st[i].active != nil {
			continue
		}
		for _, p := range a.primaries[i] {
			wg := a.groupOrNew(a.matcher.PatternGroup(p))
			if wg.want == 0 {
				want++
			}
			wg.want |= 1 << a.mode(p)
		}
	}
	end := len(a.msgs) - window
	for mi := end - 1; mi >= 0 && mi >= end-olderScanLimit && want > 0; mi-- {
		touched := a.tallyText(a.msgs[mi].Content)
		for _, g := range touched {
			wg := a.group(g)
			if wg == nil || wg.want == 0 || wg.found == wg.want {
				continue
			}
			t := &a.tally[g]
			for mode := range 2 {
				if wg.want&(1<<mode) != 0 && wg.older[mode].msg < 0 && t.count(mode) > 0 {
					wg.older[mode] = olderHit{msg: mi, first: t.firstOf(mode)}
					wg.found |= 1 << mode
				}
			}
			if wg.found == wg.want {
				want--
			}
		}
		a.clearTally(touched)
	}
	for i := range a.st {
		st := &a.st[i]
		if !st.byKeywords || st.active != nil {
			continue
		}
		best, bestMsg := match.Hit{}, -1
		for _, p := range a.primaries[i] {
			wg := a.group(a.matcher.PatternGroup(p))
			if wg == nil {
				continue
			}
			o := wg.older[a.mode(p)]
			h := match.Hit{Pattern: p, Start: o.first[0], End: o.first[1]}
			if o.msg >= 0 && (o.msg > bestMsg || o.msg == bestMsg && earlierHit(h, best)) {
				best, bestMsg = h, o.msg
			}
		}
		if bestMsg >= 0 {
			st.older = a.keywordHit(reason.LoreBeforeWindow, best, reason.P("message", bestMsg),
				reason.P("excerpt", snippet(a.msgs[bestMsg].Content, best.Start, best.End)))
		}
	}
}
