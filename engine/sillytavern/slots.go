package sillytavern

import (
	"sort"

	"github.com/lorekit/lore/formats"
)

// slots are SillyTavern's insertion points filled with the activated
// entries, each in prompt order: SillyTavern sorts the activated entries by
// Order, highest first (ties in activation order), and puts each at the
// front of its point, so a point reads Order ascending, ties in reverse
// activation order — but an outlet, which it appends to, reads Order
// descending.
type slots struct {
	before, after     []*entry
	anTop, anBottom   []*entry
	emTop, emBottom   []*entry // emTop as the prompt has it (see fill)
	depth             []*depthSlot
	outlets           map[string][]*entry
	outletNames       []string
	empty             []*entry // activated, but empty: placed nowhere
	activeAuthorsNote bool
}

// depthSlot is the entries at one depth with one role: one injection.
type depthSlot struct {
	depth   float64
	role    float64
	entries []*entry
}

func (sc *scan) slots(an bool) *slots {
	sl := &slots{outlets: map[string][]*entry{}, activeAuthorsNote: an}
	sorted := make([]*activation, len(sc.activated))
	copy(sorted, sc.activated)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].e.order > sorted[j].e.order })
	// Built by appending in that order, then reversed: the same as
	// SillyTavern's unshift.
	var em []*entry
	for _, a := range sorted {
		e := a.e
		if sc.content[e.idx] == "" {
			sl.empty = append(sl.empty, e)
			continue
		}
		switch e.position {
		case posBefore:
			sl.before = append(sl.before, e)
		case posAfter:
			sl.after = append(sl.after, e)
		case posANTop:
			sl.anTop = append(sl.anTop, e)
		case posANBottom:
			sl.anBottom = append(sl.anBottom, e)
		case posEMTop, posEMBottom:
			em = append(em, e)
		case posDepth:
			d, r := formats.JSNumber(e.depthOrDefault()), formats.JSNumber(e.roleOrSystem())
			var slot *depthSlot
			for _, s := range sl.depth {
				if s.depth == d && s.role == r {
					slot = s
					break
				}
			}
			if slot == nil {
				slot = &depthSlot{depth: d, role: r}
				sl.depth = append(sl.depth, slot)
			}
			slot.entries = append(slot.entries, e)
		case posOutlet:
			// Outlets are 1.13.5's; 1.18.0 skips an outlet entry without a
			// name.
			if !sc.s.v118() || e.outletName == "" {
				continue
			}
			if _, ok := sl.outlets[e.outletName]; !ok {
				sl.outletNames = append(sl.outletNames, e.outletName)
			}
			sl.outlets[e.outletName] = append(sl.outlets[e.outletName], e)
		}
	}
	for _, l := range []*[]*entry{&sl.before, &sl.after, &sl.anTop, &sl.anBottom, &em} {
		reverse(*l)
	}
	for _, s := range sl.depth {
		reverse(s.entries)
	}
	// An outlet's entries are appended, not put in front: Order descending.
	// The example-message entries come in one list, Order ascending;
	// Generate() puts each top one at the front of the examples in turn,
	// which reverses them, and appends the bottom ones.
	for _, e := range em {
		if e.position == posEMTop {
			sl.emTop = append(sl.emTop, e)
		} else {
			sl.emBottom = append(sl.emBottom, e)
		}
	}
	reverse(sl.emTop)
	return sl
}

func reverse(es []*entry) {
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
}
