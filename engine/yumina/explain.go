package yumina

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// explain says, for every entry, why Yumina sends it or not, in Yumina's
// terms.
func explain(in *render.Input, s settings, es []*entry, a *activator, b budgeted, res *render.Result) map[string]*render.Explanation {
	out := make(map[string]*render.Explanation, len(es))
	dropped := map[*entry]bool{}
	for _, x := range b.dropped {
		dropped[x.entry] = true
	}
	w := &why{in: in, s: s, a: a, b: b, res: res}
	for _, e := range es {
		if _, dup := out[e.ID]; dup {
			continue // duplicate id (lint's duplicate-id): the first one explains
		}
		x := &render.Explanation{}
		x.Active, x.Reasons = w.entry(e, dropped[e])
		out[e.ID] = x
	}
	return out
}

type why struct {
	in  *render.Input
	s   settings
	a   *activator
	b   budgeted
	res *render.Result
}

// at is a reason about one field of e, at that field.
func at(e *entry, code reason.Code, field string, params ...reason.Param) reason.Reason {
	var pos schema.Pos
	if field != "" {
		pos = e.FieldPos(field)
	}
	return reason.New(code, field, pos, params...)
}

// entry is whether e activated, and the reasons.
func (w *why) entry(e *entry, dropped bool) (bool, []reason.Reason) {
	var r []reason.Reason
	if e.Role == roleGreeting {
		return false, []reason.Reason{at(e, reason.YuminaGreeting, "role")}
	}
	vb := e.variableBound()
	switch {
	case !e.Enabled && !vb:
		return false, []reason.Reason{at(e, reason.YuminaDisabled, "enabled")}
	case !e.Enabled:
		r = append(r, at(e, reason.YuminaDisabledConditions, "enabled"))
	}
	if e.defaultAlwaysSend && e.AlwaysSend {
		r = append(r, at(e, reason.YuminaAlwaysSendUnset, "alwaysSend", reason.P("section", e.Section)))
	}
	if e.alwaysSend && !vb {
		r = append(r, at(e, reason.AlwaysSent, "alwaysSend"))
		return true, append(r, w.placement(e)...)
	}
	if e.alwaysSend {
		r = append(r, at(e, reason.YuminaAlwaysSendConditions, "alwaysSend"))
	}
	holds, condWhy := conditionsHold(e, w.a.vars)
	if condWhy.Code != "" {
		r = append(r, condWhy)
	}
	if !holds {
		return false, r
	}
	x := w.a.byEntry[e.idx]
	if len(e.Keywords) == 0 {
		if !vb {
			return false, append(r, at(e, reason.YuminaNoWayIn, "keywords"))
		}
		r = append(r, at(e, reason.YuminaConditionsOnly, "conditions"))
	} else {
		r = append(r, w.regexNotes(e)...)
		if x == nil {
			return false, append(r, w.notMatched(e)...)
		}
		r = append(r, w.matched(x)...)
	}
	if dropped {
		return true, append(r, w.dropped(x))
	}
	if !e.Enabled {
		return true, r
	}
	return true, append(r, w.placement(e)...)
}

// placement says where an activated entry went, or why it went nowhere.
func (w *why) placement(e *entry) []reason.Reason {
	switch {
	case e.Role == roleExample && !(e.alwaysSend && !e.variableBound()):
		return []reason.Reason{at(e, reason.YuminaExampleMatched, "role")}
	case e.chatHistory() && e.depth == nil:
		return []reason.Reason{at(e, reason.YuminaNoDepth, "depth", reason.P("defaultDepth", defaultDepth))}
	}
	var out []reason.Reason
	if e.Role == roleExample {
		if !w.sentAt(e.ID, render.StepExamples) {
			out = append(out, at(e, reason.YuminaExampleNoLines, "content"))
		} else {
			out = append(out, at(e, reason.YuminaExampleSent, "role"))
		}
	}
	switch {
	case e.chatHistory():
		out = append(out, at(e, reason.YuminaInserted, "depth", reason.P("depth", *e.depth), reason.P("unset", e.defaultDepth)))
	case e.Section == schema.SectionPostHistory:
		out = append(out, at(e, reason.YuminaPostHistory, "section"))
	case e.Role != roleExample:
		out = append(out, at(e, reason.YuminaSystem, "section"))
	}
	return out
}

// sentAt reports whether a message of that step names the entry.
func (w *why) sentAt(id string, step int) bool {
	for _, m := range w.res.Messages {
		if m.Step == step && slices.Contains(m.Sources, id) {
			return true
		}
	}
	return false
}

// keyword is a reason about keyword k of an entry, at that keyword,
// starting with its text.
func (w *why) keyword(code reason.Code, k int, params ...reason.Param) reason.Reason {
	kw := w.a.kws[k]
	e := w.a.es[kw.entry]
	field, list := "keywords", e.Keywords
	if kw.secondary {
		field, list = "secondaryKeywords", e.SecondaryKeywords
	}
	return reason.New(code, field, list[kw.k].Pos, append([]reason.Param{reason.P("keyword", list[kw.k].Text)}, params...)...)
}

// where is where a keyword matched, as reason params: at (message:N) or
// entry (whose content).
func (w *why) where(at [2]int) reason.Param {
	in, seg := w.a.locate(at)
	if seg.entry >= 0 {
		return reason.P("entry", w.a.es[seg.entry].ID)
	}
	return reason.P("at", in)
}

// matched describes a keyword activation.
func (w *why) matched(x *activation) []reason.Reason {
	out := []reason.Reason{w.keyword(reason.YuminaKeywordMatched, x.kw, w.where(x.at),
		reason.P("excerpt", w.snippet(x.at)), reason.P("level", x.level))}
	if n := len(w.a.secondary[x.entry.idx]); n > 0 {
		out = append(out, at(x.entry, reason.SecondaryLogic, "secondaryKeywords",
			w.secondaryParams(x.entry, true, func(k int) bool { return slices.Contains(x.secondary, k) })...))
	}
	return out
}

// notMatched says why an eligible entry with keywords did not activate.
func (w *why) notMatched(e *entry) []reason.Reason {
	a := w.a
	first := -1
	for _, k := range a.primary[e.idx] {
		if ok, _ := a.matched(k); ok {
			first = k
			break
		}
	}
	if first < 0 {
		if len(a.window) == 0 {
			return []reason.Reason{at(e, reason.YuminaNothingScanned, "")}
		}
		return []reason.Reason{at(e, reason.YuminaNoMatch, "keywords", reason.P("messages", len(a.window)),
			reason.P("scanDepth", w.s.scanDepth), reason.P("from", w.s.from["lorebookScanDepth"]),
			reason.P("recursion", a.level > 0 || len(a.segments) > len(a.window)))}
	}
	kw := a.kws[first]
	hit := kw.litAt
	if kw.regexLevel >= 0 {
		hit = kw.regexAt
	}
	where := w.where(hit)
	if where.Name == "entry" && e.ExcludeRecursion && kw.litLevel > 0 {
		r := w.keyword(reason.YuminaContentExcluded, first, where)
		r.Field, r.Pos = "excludeRecursion", e.FieldPos("excludeRecursion")
		return []reason.Reason{r}
	}
	now := func(k int) bool { ok, _ := a.matched(k); return ok }
	return []reason.Reason{w.keyword(reason.YuminaSecondaryFails, first, append([]reason.Param{where, reason.P("excerpt", w.snippet(hit))},
		w.secondaryParams(e, false, now)...)...)}
}

// secondaryParams are the secondary logic's verdict on the text, given
// which secondary keywords matched it, as reason.SecondaryLogic's params.
func (w *why) secondaryParams(e *entry, holds bool, matchedKW func(k int) bool) []reason.Param {
	var matched, missing []string
	for _, k := range w.a.secondary[e.idx] {
		if matchedKW(k) {
			matched = append(matched, w.a.keywordText(k))
		} else {
			missing = append(missing, w.a.keywordText(k))
		}
	}
	return []reason.Param{reason.P("logic", logic(e)), reason.P("holds", holds), reason.P("in", "scanned-text"),
		reason.P("matched", matched), reason.P("missing", missing)}
}

// regexNotes are the keywords Yumina tries as regular expressions that do
// not compile.
func (w *why) regexNotes(e *entry) []reason.Reason {
	var out []reason.Reason
	for _, ks := range [][]int{w.a.primary[e.idx], w.a.secondary[e.idx]} {
		for _, k := range ks {
			if err := w.a.kws[k].regexErr; err != nil {
				out = append(out, w.keyword(reason.YuminaRegexAsText, k, reason.P("error", err.Error())))
			}
		}
	}
	return out
}

// dropped says why the lorebook budget left an activated entry out.
func (w *why) dropped(x *activation) reason.Reason {
	b := w.b
	base := []reason.Param{reason.P("budget", b.budget), reason.P("percent", int(w.s.budgetPercent)),
		reason.P("maxContext", w.s.maxContext), reason.P("cap", w.s.budgetCap)}
	if x == b.stop {
		return at(x.entry, reason.YuminaBudgetStop, "content", append(base, reason.P("score", x.score),
			reason.P("needed", b.stopTokens), reason.P("used", b.used))...)
	}
	return at(x.entry, reason.YuminaBudgetAfter, "content", append(base, reason.P("stop", b.stop.entry.ID), reason.P("score", x.score))...)
}

// snippet quotes the scanned text around a hit, on one line, within the
// message or content it is in (both, for a hit across a join).
func (w *why) snippet(at [2]int) string {
	lo, _ := w.a.segmentBounds(at[0])
	_, hi := w.a.segmentBounds(max(at[0], at[1]-1))
	text := w.a.text[:hi]
	const around = 30
	s, e := at[0], min(at[1], hi)
	for n := 0; s > lo && n < around; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:s])
		s -= size
	}
	for n := 0; e < len(text) && n < around; n++ {
		_, size := utf8.DecodeRuneInString(text[e:])
		e += size
	}
	body := strings.Join(strings.FieldsFunc(text[s:e], unicode.IsSpace), " ")
	pre, post := "", ""
	if s > lo {
		pre = "…"
	}
	if e < len(text) {
		post = "…"
	}
	return "“" + pre + body + post + "”"
}
