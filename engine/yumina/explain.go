package yumina

import (
	"fmt"
	"slices"
	"strconv"
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
		var texts []string
		x.Active, texts = w.entry(e, dropped[e])
		x.Reasons = reason.Saids(texts)
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

// entry is whether e activated, and the reasons.
func (w *why) entry(e *entry, dropped bool) (bool, []string) {
	var r []string
	if e.Role == roleGreeting {
		return false, []string{"role greeting: Yumina opens a session with its greeting and never sends it as an entry (the transcript holds it)"}
	}
	vb := e.variableBound()
	switch {
	case !e.Enabled && !vb:
		return false, []string{"disabled (enabled: false): Yumina skips it"}
	case !e.Enabled:
		r = append(r, "disabled (enabled: false), but it has conditions: Yumina still matches it, so its content can activate other entries by recursion, and never sends it")
	}
	if e.defaultAlwaysSend && e.AlwaysSend {
		r = append(r, "alwaysSend is not set: Yumina's default is false (lore's is true in "+e.Section+"), so only its keywords or conditions can bring it in")
	}
	if e.alwaysSend && !vb {
		r = append(r, "always sent (alwaysSend: true)")
		return true, append(r, w.placement(e)...)
	}
	if e.alwaysSend {
		r = append(r, "alwaysSend: true, but it has conditions: Yumina matches it like any other entry instead of always sending it")
	}
	holds, condWhy := conditionsHold(e, w.a.vars)
	if condWhy != "" {
		r = append(r, condWhy)
	}
	if !holds {
		return false, r
	}
	x := w.a.byEntry[e.idx]
	if len(e.Keywords) == 0 {
		if !vb {
			return false, append(r, "no keywords and no conditions, and alwaysSend is false: nothing can bring it in")
		}
		r = append(r, "no keywords: Yumina activates it by its conditions alone")
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
func (w *why) placement(e *entry) []string {
	switch {
	case e.Role == roleExample && !(e.alwaysSend && !e.variableBound()):
		return []string{"role example: Yumina builds example dialogue only from always-sent entries, so a matched one is not sent"}
	case e.chatHistory() && e.depth == nil:
		return []string{"chat-history entry without a depth (depth: null): Yumina sends it nowhere (its editor gives new entries depth " +
			strconv.Itoa(defaultDepth) + ")"}
	}
	var out []string
	if e.Role == roleExample {
		if !w.sentAt(e.ID, render.StepExamples) {
			out = append(out, "role example, but no {{user}}: or {{char}}: line was found in it: nothing is sent")
		} else {
			out = append(out, "role example: sent as example dialogue")
		}
	}
	switch {
	case e.chatHistory():
		d := *e.depth
		how := "depth " + strconv.Itoa(d)
		if e.defaultDepth {
			how = "depth is not set: Yumina's editor gives chat-history entries depth " + strconv.Itoa(d)
		}
		where := "after the newest message"
		if d > 0 {
			where = "with the " + plural(d, "newest message") + " after it"
		}
		out = append(out, fmt.Sprintf("%s: inserted %s (entries inserted before it count as messages)", how, where))
	case e.Section == schema.SectionPostHistory:
		out = append(out, "sent after the chat (post-history), in a message of its own")
	case e.Role != roleExample:
		out = append(out, "sent in the system messages, joined with the system-role entries next to it")
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

// matched describes a keyword activation.
func (w *why) matched(x *activation) []string {
	in, seg := w.a.locate(x.at)
	where := in
	if seg.entry >= 0 {
		where = "the content of entry " + w.a.es[seg.entry].ID
	}
	s := fmt.Sprintf("keyword %q matched in %s: %s", w.a.keywordText(x.kw), where, w.snippet(x.at))
	if x.level > 0 {
		s += fmt.Sprintf(" (recursion level %d)", x.level)
	}
	out := []string{s}
	if n := len(w.a.secondary[x.entry.idx]); n > 0 {
		out = append(out, w.secondarySentence(x.entry, true, func(k int) bool { return slices.Contains(x.secondary, k) }))
	}
	return out
}

// notMatched says why an eligible entry with keywords did not activate.
func (w *why) notMatched(e *entry) []string {
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
			return []string{"no message was scanned (the transcript is empty)"}
		}
		s := fmt.Sprintf("no keyword matched in the scan window (the last %s joined with spaces; lorebookScanDepth %d, %s)",
			plural(len(a.window), "message"), w.s.scanDepth, w.s.from["lorebookScanDepth"])
		if a.level > 0 || len(a.segments) > len(a.window) {
			s += " nor in the content of the entries activated by recursion"
		}
		return []string{s}
	}
	kw := a.kws[first]
	at := kw.litAt
	if kw.regexLevel >= 0 {
		at = kw.regexAt
	}
	in, seg := a.locate(at)
	if seg.entry >= 0 {
		in = "the content of entry " + a.es[seg.entry].ID
		if e.ExcludeRecursion && kw.litLevel > 0 {
			return []string{fmt.Sprintf("keyword %q matched only in %s, and excludeRecursion lets only the chat activate it", a.keywordText(first), in)}
		}
	}
	now := func(k int) bool { ok, _ := a.matched(k); return ok }
	return []string{fmt.Sprintf("keyword %q matched in %s: %s, but %s", a.keywordText(first), in, w.snippet(at), w.secondarySentence(e, false, now))}
}

// secondarySentence describes the secondary logic's verdict on the text,
// given which secondary keywords matched it.
func (w *why) secondarySentence(e *entry, holds bool, matchedKW func(k int) bool) string {
	var matched, missing []string
	for _, k := range w.a.secondary[e.idx] {
		if matchedKW(k) {
			matched = append(matched, strconv.Quote(w.a.keywordText(k)))
		} else {
			missing = append(missing, strconv.Quote(w.a.keywordText(k)))
		}
	}
	verdict := "holds"
	if !holds {
		verdict = "fails"
	}
	detail := "none of " + strings.Join(missing, ", ") + " matched"
	switch {
	case len(matched) > 0 && len(missing) == 0:
		detail = strings.Join(matched, ", ") + " matched"
	case len(matched) > 0:
		detail = strings.Join(matched, ", ") + " matched (" + strings.Join(missing, ", ") + " did not)"
	}
	return "secondary logic " + logic(e) + " " + verdict + " in the scanned text: " + detail
}

// regexNotes are the keywords Yumina tries as regular expressions that do
// not compile.
func (w *why) regexNotes(e *entry) []string {
	var out []string
	for _, ks := range [][]int{w.a.primary[e.idx], w.a.secondary[e.idx]} {
		for _, k := range ks {
			if err := w.a.kws[k].regexErr; err != nil {
				out = append(out, fmt.Sprintf("keyword %q is not a regular expression JavaScript accepts (%v): Yumina looks for it as text",
					w.a.keywordText(k), err))
			}
		}
	}
	return out
}

// dropped says why the lorebook budget left an activated entry out.
func (w *why) dropped(x *activation) string {
	b := w.b
	base := fmt.Sprintf("left out by Yumina's lorebook budget (%d tokens, %d%% of maxContext %d", b.budget,
		int(w.s.budgetPercent), w.s.maxContext)
	if w.s.budgetCap > 0 {
		base += fmt.Sprintf(", lorebookBudgetCap %d", w.s.budgetCap)
	}
	base += "): matched entries are ranked by position, then score, and the budget stops at the first that does not fit"
	if x == b.stop {
		return base + fmt.Sprintf(": this one (score %d) needed %d tokens with %d of %d used", x.score, b.stopTokens, b.used, b.budget)
	}
	return base + fmt.Sprintf(", which was entry %s; this one (score %d) ranks after it", b.stop.entry.ID, x.score)
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

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
