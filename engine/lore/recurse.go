package lore

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
)

// levelScan is what the contents scanned at one recursion level hold, per
// matcher group.
type levelScan struct {
	parents []int          // entry indexes, in prompt order
	texts   []string       // their contents, macros expanded
	groups  []int          // the groups that occurred, in order of first occurrence
	hits    [][]parentHit  // by slot: the parents whose content holds the group, in prompt order
	slot    []int32        // group → slot in hits, -1 when it did not occur
	holds   [][]groupFlags // by parent: the groups its content holds, ascending
	valid   map[validKey]validParents
}

// parentHit is one parent's content holding one group.
type parentHit struct {
	order int       // the parent's place in levelScan.parents
	flags uint8     // 1: it occurs there, 2: it occurs at word boundaries
	first [2][2]int // the first occurrence of each mode
}

type groupFlags struct {
	g     int32
	flags uint8
}

// validKey names the parents that can activate an entry through one group:
// every entry without secondary keywords that looks for the group in one
// mode shares them; an entry with secondary keywords shares them with the
// entries whose secondary keywords and logic are the same.
type validKey struct {
	slot, mode int
	secondary  string
}

// validParents are the parents, in prompt order, whose content activates an
// entry through one group: ids for the budget (shared between the entries
// with one validKey), and the first one's hit.
type validParents struct {
	ids   []string
	first int // index in levelScan.hits[slot], -1 for none
}

// recurse scans the content of activated entries level by level (SPEC §1,
// "Recursion"). Content is scanned even where it cannot activate anything
// (preventRecursion, the last level, recursion off) so the explanation can
// say what it would have done.
//
// Each level's contents are scanned once and summed up per group; then only
// the entries with a keyword in a group that occurred are visited, and an
// entry leaves a group's list of pending entries for good once it is active or
// can never be activated by recursion. The parents that activate an entry
// through one group are one list, shared by every entry that looks for that
// group the same way, so a keyword named in thousands of contents and shared by
// thousands of entries costs thousands, not millions.
func (a *activator) recurse() {
	var frontier []int
	for i := range a.book.Entries {
		if a.scannable(i) {
			frontier = append(frontier, i)
		}
	}
	pending := make([][]int, len(a.members))
	for g, ps := range a.members {
		for _, p := range ps {
			if a.st[a.refs[p].entry].byKeywords {
				pending[g] = append(pending[g], p)
			}
		}
	}
	slot := make([]int32, a.matcher.NumGroups())
	for g := range slot {
		slot[g] = -1
	}
	for level := 0; len(frontier) > 0; level++ {
		a.sortByPrompt(frontier)
		lv := a.scanLevel(frontier, slot)
		var next []int
		for _, g := range lv.groups {
			ps := pending[g]
			for k := 0; k < len(ps); {
				if a.visit(a.refs[ps[k]].entry, level, lv, &next) {
					ps[k] = ps[len(ps)-1]
					ps = ps[:len(ps)-1]
					continue
				}
				k++
			}
			pending[g] = ps
		}
		for _, g := range lv.groups {
			slot[g] = -1
		}
		frontier = next
	}
}

// scannable reports an active entry whose content is scanned for recursion:
// activated by keywords, or constant.
func (a *activator) scannable(i int) bool {
	st := &a.st[i]
	if st.active == nil {
		return false
	}
	return st.byKeywords || a.book.Entries[i].IsConstant()
}

// scanLevel scans the parents' contents, each once.
func (a *activator) scanLevel(parents []int, slot []int32) *levelScan {
	lv := &levelScan{parents: parents, texts: make([]string, len(parents)), holds: make([][]groupFlags, len(parents)),
		slot: slot, valid: map[validKey]validParents{}}
	for order, p := range parents {
		text := a.macros.Expand(a.book.Entries[p].Content)
		lv.texts[order] = text
		touched := a.tallyText(text)
		holds := make([]groupFlags, 0, len(touched))
		for _, g := range touched {
			t := &a.tally[g]
			h := parentHit{order: order, flags: 1, first: [2][2]int{t.first, t.firstBounded}}
			if t.nb > 0 {
				h.flags |= 2
			}
			if slot[g] < 0 {
				slot[g] = int32(len(lv.hits))
				lv.hits = append(lv.hits, nil)
				lv.groups = append(lv.groups, g)
			}
			lv.hits[slot[g]] = append(lv.hits[slot[g]], h)
			holds = append(holds, groupFlags{g: int32(g), flags: h.flags})
		}
		sort.Slice(holds, func(i, j int) bool { return holds[i].g < holds[j].g })
		lv.holds[order] = holds
		a.clearTally(touched)
	}
	return lv
}

// holdsGroup says whether parent order's content holds group g in a mode.
func (lv *levelScan) holdsGroup(order, g, mode int) bool {
	hs := lv.holds[order]
	k := sort.Search(len(hs), func(i int) bool { return int(hs[i].g) >= g })
	return k < len(hs) && int(hs[k].g) == g && hs[k].flags&(1<<mode) != 0
}

// visit examines entry c, whose keyword occurred in this level's contents,
// once per level: it activates c at level+1 when some parent's content can, or
// records why not. It reports whether c is settled — active, or never
// activated by recursion — so its pending lists can drop it.
func (a *activator) visit(c, level int, lv *levelScan, next *[]int) bool {
	st := &a.st[c]
	if st.active != nil {
		return st.active.Level <= level+1
	}
	if st.recVisit == level+1 {
		return false // seen through another of its keywords
	}
	st.recVisit = level + 1

	var lists [][]string
	var best, first match.Hit
	bestOrder, firstOrder, total := -1, -1, 0
	for _, p := range a.primaries[c] {
		g := a.matcher.PatternGroup(p)
		if g < 0 || lv.slot[g] < 0 {
			continue
		}
		s, mode := int(lv.slot[g]), a.mode(p)
		hits := lv.hits[s]
		for k := range hits {
			if hits[k].flags&(1<<mode) == 0 {
				continue
			}
			total++
			h := match.Hit{Pattern: p, Start: hits[k].first[mode][0], End: hits[k].first[mode][1]}
			if firstOrder < 0 || hits[k].order < firstOrder || hits[k].order == firstOrder && earlierHit(h, first) {
				first, firstOrder = h, hits[k].order
			}
		}
		vp := a.validParents(c, s, mode, lv)
		if vp.first < 0 {
			continue
		}
		lists = append(lists, vp.ids)
		f := hits[vp.first]
		h := match.Hit{Pattern: p, Start: f.first[mode][0], End: f.first[mode][1]}
		if bestOrder < 0 || f.order < bestOrder || f.order == bestOrder && earlierHit(h, best) {
			best, bestOrder = h, f.order
		}
	}
	if firstOrder < 0 {
		return false // its keyword occurred only in the other mode (not as a whole word)
	}
	if bestOrder < 0 {
		a.missNoParent(c, first, firstOrder, total, lv)
		return false // another level's content may still activate it
	}
	parent := a.book.Entries[lv.parents[bestOrder]]
	from := reason.P("entry", parent.ID)
	switch e := a.book.Entries[c]; {
	case e.ExcludeRecursion:
		r := a.keywordHit(reason.LoreRecursionExcluded, best, from)
		r.Field, r.Pos = "excludeRecursion", e.FieldPos("excludeRecursion")
		a.miss(c, r, total-1)
		return true
	case a.limit <= 0:
		a.miss(c, a.keywordHit(reason.LoreRecursionOff, best, from), total-1)
		return true
	case level+1 > a.limit:
		a.miss(c, a.keywordHit(reason.LoreRecursionAboveLimit, best, from, reason.P("level", level+1), reason.P("limit", a.limit)), total-1)
		return true // deeper levels are above the limit too
	}
	st.active = &render.Activated{Entry: a.book.Entries[c], Level: level + 1, LastMessage: -1,
		Trigger:     render.Trigger{Keyword: a.keywordOf(a.book, best), In: "entry:" + parent.ID},
		ParentLists: lists}
	st.recHit, st.recText = best, lv.texts[bestOrder]
	*next = append(*next, c)
	return true
}

// validParents lists the parents whose content holds group slot s in a mode
// and activates entry c: not preventRecursion, and c's secondary logic holding
// in that content. Entries that would get the same answer share it.
func (a *activator) validParents(c, s, mode int, lv *levelScan) validParents {
	key := validKey{slot: s, mode: mode}
	if a.st[c].nSecondary > 0 {
		key.secondary = a.secondarySignature(c)
	}
	if vp, ok := lv.valid[key]; ok {
		return vp
	}
	vp := validParents{first: -1}
	for k, h := range lv.hits[s] {
		if h.flags&(1<<mode) == 0 {
			continue
		}
		parent := a.book.Entries[lv.parents[h.order]]
		if parent.PreventRecursion {
			continue
		}
		if a.st[c].nSecondary > 0 && !a.secondaryHolds(c, a.secondariesInContent(c, h.order, lv)) {
			continue
		}
		if vp.first < 0 {
			vp.first = k
		}
		vp.ids = append(vp.ids, parent.ID)
	}
	lv.valid[key] = vp
	return vp
}

func (a *activator) secondariesInContent(c, order int, lv *levelScan) []int {
	return a.secondariesIn(c, func(g, mode int) bool { return lv.holdsGroup(order, g, mode) })
}

// secondarySignature is what decides c's secondary logic on a text: its
// logic, how many secondary keywords it counts, and the group and mode of
// each (in keyword order).
func (a *activator) secondarySignature(c int) string {
	var b strings.Builder
	b.WriteString(strings.ToUpper(a.book.Entries[c].SecondaryKeywordLogic))
	b.WriteString("/" + strconv.Itoa(a.st[c].nSecondary))
	for _, p := range a.secPatterns[c] {
		fmt.Fprintf(&b, "/%d:%d:%d", a.refs[p].kw, a.matcher.PatternGroup(p), a.mode(p))
	}
	return b.String()
}

// missNoParent records why no content at this level activated c: the first
// parent's (in prompt order) secondary logic, or its preventRecursion.
func (a *activator) missNoParent(c int, first match.Hit, order, total int, lv *levelScan) {
	parent := a.book.Entries[lv.parents[order]]
	from := reason.P("entry", parent.ID)
	if a.st[c].nSecondary > 0 {
		if sec := a.secondariesInContent(c, order, lv); !a.secondaryHolds(c, sec) {
			r := a.keywordHit(reason.LoreRecursionSecondaryFails, first, append([]reason.Param{from}, a.secondaryParams(c, sec, false, "content")...)...)
			r.Field, r.Pos = "secondaryKeywords", a.book.Entries[c].FieldPos("secondaryKeywords")
			a.miss(c, r, total-1)
			return
		}
	}
	a.miss(c, a.keywordHit(reason.LoreRecursionPrevented, first, from), total-1)
}

// maxRecMiss is how many content matches that did not activate an entry its
// explanation quotes; the rest are counted.
const maxRecMiss = 3

func (a *activator) miss(c int, why reason.Reason, more int) {
	st := &a.st[c]
	if len(st.recMiss) < maxRecMiss {
		st.recMiss = append(st.recMiss, why)
	} else {
		more++
	}
	st.recMissMore += more
}
