package lore

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// explain writes why entry i is in or out, from what activation recorded.
func (a *activator) explain(i, window int) *render.Explanation {
	e := a.book.Entries[i]
	st := &a.st[i]
	x := &render.Explanation{Active: st.active != nil}
	if st.active != nil {
		x.Level = st.active.Level
	}
	if !e.Enabled {
		x.Reasons = []reason.Reason{at(e, reason.LoreDisabled, "enabled")}
		return x
	}
	_, why := render.EvalConditions(e, a.values, a.book, a.in.Vars)
	x.Reasons = append(x.Reasons, why...)
	if !st.eligible {
		return x
	}
	if e.AlwaysSend {
		switch {
		case e.Section == schema.SectionChatHistory:
			x.Reasons = append(x.Reasons, at(e, reason.LoreConstant, "alwaysSend"))
		case e.Has("alwaysSend"):
			x.Reasons = append(x.Reasons, at(e, reason.AlwaysSent, "alwaysSend"))
		default:
			x.Reasons = append(x.Reasons, at(e, reason.LoreAlwaysSentDefault, "section", reason.P("section", e.Section)))
		}
		return x
	}
	for k, kw := range e.Keywords {
		if err := a.patternError(i, false, k); err != nil {
			x.Reasons = append(x.Reasons, reason.New(reason.LoreKeywordNeverMatches, "keywords", kw.Pos,
				reason.P("keyword", kw.Text), reason.P("error", err.Error())))
		}
	}
	for k, kw := range e.SecondaryKeywords {
		if err := a.patternError(i, true, k); err != nil {
			x.Reasons = append(x.Reasons, reason.New(reason.LoreSecondaryNeverMatches, "secondaryKeywords", kw.Pos,
				reason.P("keyword", kw.Text), reason.P("error", err.Error())))
		}
	}
	if st.nPrimary == 0 {
		if e.Section == schema.SectionChatHistory {
			x.Reasons = append(x.Reasons, at(e, reason.LoreNoKeywordsChatHistory, "keywords"))
		} else {
			x.Reasons = append(x.Reasons, at(e, reason.LoreNoKeywords, "keywords"))
		}
		return x
	}
	if x.Active {
		x.Reasons = append(x.Reasons, a.activeReasons(i)...)
		return x
	}
	// Out: what the chat did, then what recursion did.
	if st.secMiss.Code != "" && window > 0 && len(a.msgs) > 0 {
		x.Reasons = append(x.Reasons, st.secMiss)
	} else {
		x.Reasons = append(x.Reasons, onField(e, a.windowReason(window)))
	}
	// A key that is a list typed into one field matches only where the whole
	// list is written: say so, or "no keyword matched" hides why.
	for _, kw := range e.Keywords {
		if parts, sep := match.SplitJoined(kw.Text); parts != nil {
			x.Reasons = append(x.Reasons, reason.New(reason.LoreJoinedKeyword, "keywords", kw.Pos,
				reason.P("keyword", kw.Text), reason.P("parts", len(parts)), reason.P("separator", sep), reason.P("first", parts[0])))
		}
	}
	if st.older.Code != "" {
		x.Reasons = append(x.Reasons, st.older)
	}
	x.Reasons = append(x.Reasons, st.recMiss...)
	if st.recMissMore > 0 {
		x.Reasons = append(x.Reasons, reason.Reason{Code: reason.LoreMoreRecursionMisses,
			Params: reason.Params{reason.P("count", st.recMissMore)}})
	}
	return x
}

// windowReason says what the scan window held when no keyword of an entry
// matched there: one reason for every such entry of a render, whose params
// they share.
func (a *activator) windowReason(window int) reason.Reason {
	if a.noMatch.Code != "" {
		return a.noMatch
	}
	switch {
	case window <= 0 || len(a.msgs) == 0:
		a.noMatch = reason.Reason{Code: reason.LoreNothingScanned,
			Params: reason.Params{reason.P("window", max(window, 0)), reason.P("messages", len(a.msgs))}}
	case window >= len(a.msgs):
		a.noMatch = reason.Reason{Code: reason.LoreNoMatchTranscript, Field: "keywords",
			Params: reason.Params{reason.P("messages", len(a.msgs)), reason.P("window", window)}}
	default:
		a.noMatch = reason.Reason{Code: reason.LoreNoMatchWindow, Field: "keywords", Params: reason.Params{reason.P("window", window)}}
	}
	return a.noMatch
}

// at is a reason about one field of e, at that field.
func at(e *schema.Entry, code reason.Code, field string, params ...reason.Param) reason.Reason {
	return onField(e, reason.New(code, field, schema.Pos{}, params...))
}

// onField puts r at its field of e (nowhere when it names none).
func onField(e *schema.Entry, r reason.Reason) reason.Reason {
	if r.Field != "" {
		r.Pos = e.FieldPos(r.Field)
	}
	return r
}

// keywordHit is a reason about the keyword a hit is of, at that keyword,
// starting with its text.
func (a *activator) keywordHit(code reason.Code, h match.Hit, params ...reason.Param) reason.Reason {
	kw := a.keywordAt(a.book, h)
	field := "keywords"
	if a.refs[h.Pattern].secondary {
		field = "secondaryKeywords"
	}
	ps := make(reason.Params, 0, 1+len(params))
	return reason.Reason{Code: code, Field: field, Pos: kw.Pos, Params: append(append(ps, reason.P("keyword", kw.Text)), params...)}
}

func (a *activator) activeReasons(i int) []reason.Reason {
	st := &a.st[i]
	var out []reason.Reason
	if t := st.chat; t != nil {
		text := a.msgs[t.msg].Content
		out = append(out, a.keywordHit(reason.LoreKeywordMatched, t.hit, reason.P("message", t.msg),
			reason.P("excerpt", snippet(text, t.hit.Start, t.hit.End))))
		if st.nSecondary > 0 {
			out = append(out, a.secondaryReason(i, t.sec, true, "scan-window"))
		}
		msgs := unionDesc(t.msgs)
		if len(msgs) > 1 {
			const maxList = 5
			others := msgs[1:min(len(msgs), maxList+1)]
			out = append(out, at(a.book.Entries[i], reason.LoreAlsoMatched, "keywords",
				reason.P("messages", others), reason.P("more", len(msgs)-1-len(others)),
				reason.P("hits", st.active.Hits), reason.P("scanned", len(msgs))))
		}
		return out
	}
	if lists := st.active.ParentLists; len(lists) > 0 {
		parent := strings.TrimPrefix(st.active.Trigger.In, "entry:")
		out = append(out, a.keywordHit(reason.LoreRecursionMatched, st.recHit, reason.P("entry", parent),
			reason.P("level", st.active.Level), reason.P("excerpt", snippet(st.recText, st.recHit.Start, st.recHit.End))))
		if others, more, more2 := otherParents(lists, parent, 5); len(others) > 0 {
			out = append(out, reason.Reason{Code: reason.LoreRecursionAlso,
				Params: reason.Params{reason.P("entries", others), reason.P("more", more), reason.P("others", more2)}})
		}
	}
	return out
}

// unionDesc merges ascending lists of message indexes into one list without
// repeats, newest first.
func unionDesc(lists [][]int) []int {
	if len(lists) == 1 {
		out := make([]int, len(lists[0]))
		for k, m := range lists[0] {
			out[len(out)-1-k] = m
		}
		return out
	}
	seen := map[int]bool{}
	var out []int
	for _, l := range lists {
		for _, m := range l {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out)))
	return out
}

// otherParents lists up to limit parents besides first, in the order recorded,
// and says how many more there are: exactly for one list (the usual case: one
// keyword named in the parents' content), "others" for several, whose union
// is not worth counting.
func otherParents(lists [][]string, first string, limit int) ([]string, int, bool) {
	seen := map[string]bool{first: true}
	var out []string
	total := 0
	for _, l := range lists {
		total += len(l)
		for _, id := range l {
			if len(out) == limit {
				break
			}
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	switch {
	case len(lists) == 1 && total-1 > len(out):
		return out, total - 1 - len(out), false
	case len(lists) > 1 && total > len(seen):
		return out, 0, true
	}
	return out, 0, false
}

// snippet quotes the text around a hit, on one line: “…who runs this tavern?…”.
func snippet(text string, start, end int) string {
	// 30 characters (not bytes) either side, so Japanese gets as much
	// context as English.
	const around = 30
	s := start
	for n := 0; s > 0 && n < around; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:s])
		s -= size
	}
	e := end
	for n := 0; e < len(text) && n < around; n++ {
		_, size := utf8.DecodeRuneInString(text[e:])
		e += size
	}
	var body strings.Builder
	space := false
	for _, r := range text[s:e] {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && body.Len() > 0 {
			body.WriteByte(' ')
		}
		space = false
		body.WriteRune(r)
	}
	var b strings.Builder
	b.WriteString("“")
	if s > 0 {
		b.WriteString("…")
	}
	b.WriteString(body.String())
	if e < len(text) {
		b.WriteString("…")
	}
	b.WriteString("”")
	return b.String()
}

// secondaryParams are the secondary logic's verdict on one text (in:
// "scan-window", "content"), as reason.SecondaryLogic's params.
func (a *activator) secondaryParams(i int, sec []int, holds bool, in string) []reason.Param {
	e := a.book.Entries[i]
	logic := strings.ToUpper(e.SecondaryKeywordLogic)
	if logic == "" {
		logic = schema.AndAny
	}
	var matched, missing []string
	for k, kw := range e.SecondaryKeywords {
		if strings.TrimSpace(kw.Text) == "" {
			continue
		}
		if containsInt(sec, k) {
			matched = append(matched, kw.Text)
		} else {
			missing = append(missing, kw.Text)
		}
	}
	return []reason.Param{reason.P("logic", logic), reason.P("holds", holds), reason.P("in", in),
		reason.P("matched", matched), reason.P("missing", missing)}
}

// secondaryReason is the secondary logic's verdict as a reason of its own.
func (a *activator) secondaryReason(i int, sec []int, holds bool, in string) reason.Reason {
	e := a.book.Entries[i]
	return at(e, reason.SecondaryLogic, "secondaryKeywords", a.secondaryParams(i, sec, holds, in)...)
}
