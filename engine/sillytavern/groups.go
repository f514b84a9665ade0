package sillytavern

import (
	"regexp"
	"sort"

	"github.com/lorekit/lore/reason"
)

// Inclusion groups: of the entries of one pass that share a group, one
// stays. SillyTavern decides in this order: sticky members win outright and
// members on cooldown or delay drop; with group scoring, members with fewer
// key hits than the best drop; a group that already has an activated member
// drops all; a member with "prioritize" wins (highest Order first); else a
// weighted roll picks the winner.

var groupSplit = regexp.MustCompile(`,\s*`)

// pending is a pass's list of candidates, from which SillyTavern removes
// group losers with newEntries.splice(newEntries.indexOf(e), 1): removing
// an entry that is no longer there (an entry of two groups that lost in
// both) removes the last candidate instead.
type pending struct {
	list    []*activation
	removed []bool
	index   map[*entry]int
	last    int // list[last] is the last candidate still there, or -1
}

func newPending(list []*activation) *pending {
	p := &pending{list: list, removed: make([]bool, len(list)), index: make(map[*entry]int, len(list)), last: len(list) - 1}
	for i, a := range list {
		p.index[a.e] = i
	}
	return p
}

func (p *pending) remove(e *entry) {
	i, ok := p.index[e]
	if !ok || p.removed[i] {
		i = p.last // indexOf gave -1: splice(-1, 1)
		if i < 0 {
			return
		}
	}
	p.removed[i] = true
	for p.last >= 0 && p.removed[p.last] {
		p.last--
	}
}

func (p *pending) remaining() []*activation {
	out := p.list[:0:0]
	for i, a := range p.list {
		if !p.removed[i] {
			out = append(out, a)
		}
	}
	return out
}

type inclusionGroup struct {
	name    string
	members []*entry
	sticky  bool
}

// groups applies the inclusion groups to one pass's candidates.
func (sc *scan) groups(list []*activation, state int) []*activation {
	var gs []*inclusionGroup
	byName := map[string]*inclusionGroup{}
	for _, a := range list {
		if a.e.group == "" {
			continue
		}
		for _, name := range groupSplit.Split(a.e.group, -1) {
			if name == "" {
				continue
			}
			g := byName[name]
			if g == nil {
				g = &inclusionGroup{name: name}
				byName[name] = g
				gs = append(gs, g)
			}
			g.members = append(g.members, a.e)
		}
	}
	if len(gs) == 0 {
		return list
	}
	// The groups are an object's keys in SillyTavern.
	sort.SliceStable(gs, func(i, j int) bool { return jsKeyLess(gs[i].name, gs[j].name) })
	p := newPending(list)
	sc.groupTimedEffects(gs, p)
	sc.groupScoring(gs, p, state)
	for _, g := range gs {
		if g.sticky {
			continue
		}
		if holder := sc.groupHolder(g.name); holder != nil {
			for _, e := range g.members {
				sc.gate(e, gateGroup, e.about(reason.STGroupHeld, "group", reason.P("group", g.name), reason.P("holder", holder.src.ID)))
				p.remove(e)
			}
			continue
		}
		if len(g.members) <= 1 {
			continue
		}
		if prio := prioritized(g.members); prio != nil {
			sc.loseAll(g, prio, p, reason.STGroupPriority)
			continue
		}
		total := 0.0
		for _, e := range g.members {
			total += e.groupWeight
		}
		roll := sc.rng.next() * total
		cur := 0.0
		var winner *entry
		for _, e := range g.members {
			cur += e.groupWeight
			if roll <= cur {
				winner = e
				break
			}
		}
		if winner == nil {
			continue
		}
		sc.loseAll(g, winner, p, reason.STGroupRolled, reason.P("roll", roll), reason.P("total", total))
	}
	return p.remaining()
}

// groupHolder is an activated entry whose group field is exactly name.
func (sc *scan) groupHolder(name string) *entry { return sc.holders[name] }

func (sc *scan) loseAll(g *inclusionGroup, winner *entry, p *pending, rule reason.Code, params ...reason.Param) {
	for _, e := range g.members {
		if e != winner {
			sc.gate(e, gateGroup, e.about(rule, "group", append([]reason.Param{reason.P("group", g.name), reason.P("winner", winner.src.ID)}, params...)...))
			p.remove(e)
		}
	}
}

// prioritized is the member with "prioritize" and the highest Order (the
// first such in pass order on a tie), or nil.
func prioritized(members []*entry) *entry {
	var best *entry
	for _, e := range members {
		if e.groupOverride && (best == nil || e.order > best.order) {
			best = e
		}
	}
	return best
}

// groupTimedEffects: a group with sticky members keeps only those; members
// on cooldown or delay drop.
func (sc *scan) groupTimedEffects(gs []*inclusionGroup, p *pending) {
	t := sc.timed
	for _, g := range gs {
		var stickies []*entry
		for _, e := range g.members {
			if t.isSticky[e.idx] {
				stickies = append(stickies, e)
			}
		}
		if len(stickies) > 0 {
			for _, e := range g.members {
				if !t.isSticky[e.idx] {
					sc.gate(e, gateGroup, e.about(reason.STGroupSticky, "group", reason.P("group", g.name), reason.P("winner", stickies[0].src.ID)))
					p.remove(e)
				}
			}
			g.sticky = true
		}
		for _, e := range g.members {
			if t.isCool[e.idx] {
				p.remove(e)
			}
		}
		for _, e := range g.members {
			if t.isDelay[e.idx] {
				p.remove(e)
			}
		}
	}
}

// groupScoring drops, in groups that use scoring, the scored members with
// fewer key hits than the group's best.
func (sc *scan) groupScoring(gs []*inclusionGroup, p *pending, state int) {
	for _, g := range gs {
		if g.sticky {
			continue
		}
		uses := sc.s.UseGroupScoring
		for _, e := range g.members {
			uses = uses || e.useGroupScoring != nil && *e.useGroupScoring
		}
		if !uses {
			continue
		}
		scores := make([]int, len(g.members))
		for i, e := range g.members {
			scores[i] = sc.score(e, state)
		}
		best := scores[0]
		for _, s := range scores {
			best = max(best, s)
		}
		kept := g.members[:0:0]
		var leader *entry
		for i, e := range g.members {
			if scores[i] == best && leader == nil {
				leader = e
			}
		}
		for i, e := range g.members {
			scored := sc.s.UseGroupScoring
			if e.useGroupScoring != nil {
				scored = *e.useGroupScoring
			}
			if scored && scores[i] < best {
				sc.gate(e, gateGroup, e.about(reason.STGroupScored, "group", reason.P("group", g.name), reason.P("winner", leader.src.ID),
					reason.P("score", scores[i]), reason.P("best", best)))
				p.remove(e)
				continue
			}
			kept = append(kept, e)
		}
		g.members = kept
	}
}

// score counts the entry's keys found in its window, as written (no macros,
// no trimming): primary hits, plus secondary hits under AND_ANY, or under
// AND_ALL when all secondary keys are found.
func (sc *scan) score(e *entry, state int) int {
	if len(e.keys) == 0 {
		return 0
	}
	primary, secondary := 0, 0
	for _, r := range sc.keys.rawPrim[e.idx] {
		if sc.hit(r, e, state) {
			primary++
		}
	}
	for _, r := range sc.keys.rawSec[e.idx] {
		if sc.hit(r, e, state) {
			secondary++
		}
	}
	if len(e.secondary) > 0 {
		if l, ok := e.selectiveLogic.(float64); ok {
			switch l {
			case logicAndAny:
				return primary + secondary
			case logicAndAll:
				if secondary == len(e.secondary) {
					return primary + secondary
				}
			}
		}
	}
	return primary
}
