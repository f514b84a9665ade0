package sillytavern

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// activationOf is the entry's activation in this generation, or nil.
func (sc *scan) activationOf(e *entry) *activation {
	return sc.byEntry[e.idx]
}

// trigger says what brought an activated entry in: the key and where it
// matched (the newest message of its window that has it, the Author's Note,
// or the entry whose content recursion scanned), "always" for constant and
// @@activate entries, "sticky" for an entry its sticky effect kept.
func (sc *scan) trigger(a *activation) render.Trigger {
	if a == nil {
		return render.Trigger{In: "always"}
	}
	switch a.reason {
	case "constant", "@@activate":
		return render.Trigger{In: "always"}
	case "sticky":
		return render.Trigger{In: "sticky"}
	}
	if a.where == "" {
		a.where = sc.locate(a)
	}
	return render.Trigger{Keyword: a.key, In: a.where}
}

func (sc *scan) recursionOf(a *activation) int {
	if a != nil && strings.HasPrefix(sc.trigger(a).In, "entry:") {
		return a.pass - 1
	}
	return 0
}

// locate finds where an entry's primary key matched.
func (sc *scan) locate(a *activation) string {
	e := a.e
	ref := keyRef{pat: -1}
	for _, r := range sc.keys.primary[e.idx] {
		if r.text == a.key {
			ref = r
			break
		}
	}
	d := sc.buf.depth(e)
	if !(d > 0) {
		return "scan"
	}
	n := sc.buf.messages(d)
	if ref.pat >= 0 {
		// The scan already knows: the newest message with it, then the
		// injections, then the recursion text that first had it.
		k := b2i(ref.whole)
		switch j := int(sc.found.first[k][ref.pat]); {
		case j < n:
			return sc.messageRef(j)
		case sc.found.inject[k][ref.pat]:
			return "authors-note"
		case sc.found.recEntry[ref.pat] >= 0:
			return "entry:" + sc.entries[sc.found.recEntry[ref.pat]].src.ID
		}
		return "scan"
	}
	// A regular expression: try each text on its own.
	one := func(text string) bool { return sc.keys.ix.in(ref, text) }
	for j := 0; j < n; j++ {
		if one(sc.buf.chat[j]) {
			return sc.messageRef(j)
		}
	}
	for _, t := range sc.buf.inject {
		if one(t) {
			return "authors-note"
		}
	}
	for pass, es := range sc.recursed {
		if pass+1 >= a.pass {
			break
		}
		for _, r := range es {
			if one(sc.content[r.idx]) {
				return "entry:" + r.src.ID
			}
		}
	}
	return "scan"
}

// report is the World Info budget as SillyTavern counts it.
func (p *prompt) report(sl *slots) *render.Report {
	sc := p.sc
	total := p.promptTokens()
	var parts []string
	for _, a := range sc.activated {
		parts = append(parts, sc.content[a.e.idx]+"\n")
	}
	wi := render.SectionReport{Name: "world-info", Class: "dynamic", Tokens: countText(sc.counter, strings.Join(parts, "")),
		Budget: sc.budget, Dropped: []string{}}
	if sc.dropped != nil {
		wi.Dropped = append(wi.Dropped, sc.dropped.src.ID)
		wi.Notes = append(wi.Notes, render.Note{Key: sc.dropped.src.ID, Tokens: sc.counter.Count(sc.content[sc.dropped.idx]),
			Why: fmt.Sprintf("the World Info budget (%d tokens) overflowed", sc.budget)})
	}
	r := &render.Report{Tokenizer: sc.counter.Name(), Total: total, Sections: []render.SectionReport{wi}}
	p.budgetReport(r)
	return r
}

// explain says, for every entry of the lorebook, why it is or is not in the
// prompt.
func (p *prompt) explain(sl *slots) map[string]*render.Explanation {
	sc := p.sc
	out := map[string]*render.Explanation{}
	for _, e := range p.b.in.Book.Entries {
		if e == nil {
			continue
		}
		if _, ok := out[e.ID]; !ok {
			out[e.ID] = &render.Explanation{}
		}
		if f := formats.CardField(e); f != "" || e.Role == "greeting" {
			x := out[e.ID]
			x.Active = e.Enabled
			if f == "first_mes" || e.Role == "greeting" {
				x.Reasons = append(x.Reasons, p.greetingReason(e))
			} else {
				x.Reasons = append(x.Reasons, reason.Reason{Code: reason.STCardField, Params: reason.Params{reason.P("field", f)}})
			}
		}
	}
	for _, e := range sc.entries {
		x := out[e.src.ID]
		a := sc.activationOf(e)
		if a == nil {
			if w := sc.why[e.idx]; w != nil {
				if len(x.Reasons) == 0 {
					x.Reasons = w.reasons // the scan's, which this generation is done with
				} else {
					x.Reasons = append(x.Reasons, w.reasons...)
				}
			} else {
				x.Reasons = append(x.Reasons, reason.Reason{Code: reason.STNotEvaluated})
			}
			continue
		}
		x.Active, x.Level = true, a.pass-1
		n := 2 // how it got in, where it went
		if a.roll >= 0 {
			n++
		}
		x.Reasons = append(make([]reason.Reason, 0, len(x.Reasons)+n), x.Reasons...)
		x.Reasons = append(x.Reasons, sc.activationReason(a))
		if a.roll >= 0 {
			x.Reasons = append(x.Reasons, e.about(reason.STProbabilityPassed, "probability",
				reason.P("probability", e.probability), reason.P("roll", a.roll)))
		}
		switch where, placed := p.placed[e]; {
		case placed:
			ps := make(reason.Params, 0, 3)
			if where.depth != nil {
				ps = append(ps, reason.P("depth", *where.depth), reason.P("role", where.role))
			} else {
				ps = append(ps, reason.P("position", where.position))
			}
			x.Reasons = append(x.Reasons, e.about(reason.STPlaced, "position", append(ps, reason.P("order", e.order))...))
		case p.wasCut(e):
			x.Reasons = append(x.Reasons, p.cutReason(e))
		case sc.content[e.idx] == "":
			x.Reasons = append(x.Reasons, e.about(reason.STEmptyAfterMacros, "content"))
		case e.position == posANTop || e.position == posANBottom:
			x.Reasons = append(x.Reasons, e.about(reason.STAuthorsNoteUnsent, "position"))
		default:
			x.Reasons = append(x.Reasons, e.about(reason.STNoInsertionPoint, "position", reason.P("position", e.position)))
		}
	}
	return out
}

// activationReason says how an entry got in.
func (sc *scan) activationReason(a *activation) reason.Reason {
	pass := reason.P("inPass", a.pass)
	switch a.reason {
	case "constant":
		return a.e.about(reason.STActivatedConstant, "constant", pass)
	case "@@activate":
		return a.e.about(reason.STActivatedDecorator, "content", pass)
	case "sticky":
		return a.e.about(reason.STActivatedSticky, "sticky", pass)
	}
	t := sc.trigger(a)
	return a.e.about(reason.STActivatedKey, "key", pass, reason.P("key", t.Keyword), reason.P("in", t.In))
}

// greetingReason says why a greeting is, or is not, the chat's first
// message.
func (p *prompt) greetingReason(e *schema.Entry) reason.Reason {
	switch {
	case e.ID != p.b.greeting:
		return reason.Reason{Code: reason.STGreetingOther}
	case p.greeted:
		return reason.Reason{Code: reason.STGreeting}
	}
	return reason.Reason{Code: reason.STGreetingKept}
}

// messageRef names the j-th newest scanned message: message:N, or the
// greeting's id for the greeting that opens the chat.
func (sc *scan) messageRef(j int) string {
	if sc.chatIndex[j] < 0 {
		return sc.greeting
	}
	return "message:" + strconv.Itoa(sc.chatIndex[j])
}
