package lore

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lorekit/lore/match"
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
		x.Reasons = []string{"disabled (enabled: false): never sent"}
		return x
	}
	x.Reasons = append(x.Reasons, st.condWhy...)
	if !st.eligible {
		return x
	}
	if e.AlwaysSend {
		switch {
		case e.Section == schema.SectionChatHistory:
			x.Reasons = append(x.Reasons, "constant entry (chat-history with alwaysSend: true): sent without keywords")
		case e.Has("alwaysSend"):
			x.Reasons = append(x.Reasons, "always sent (alwaysSend: true)")
		default:
			x.Reasons = append(x.Reasons, "always sent (alwaysSend defaults to true in section "+e.Section+")")
		}
		return x
	}
	for k, kw := range e.Keywords {
		if err := a.patternError(i, false, k); err != nil {
			x.Reasons = append(x.Reasons, fmt.Sprintf("keyword %s never matches: %v", quoteKW(kw.Text), err))
		}
	}
	for k, kw := range e.SecondaryKeywords {
		if err := a.patternError(i, true, k); err != nil {
			x.Reasons = append(x.Reasons, fmt.Sprintf("secondary keyword %s never matches: %v", quoteKW(kw.Text), err))
		}
	}
	if st.nPrimary == 0 {
		if e.Section == schema.SectionChatHistory {
			x.Reasons = append(x.Reasons, "left out: a chat-history entry without keywords is sent only with alwaysSend: true")
		} else {
			x.Reasons = append(x.Reasons, "left out: alwaysSend is false and it has no keywords, so nothing can activate it")
		}
		return x
	}
	if x.Active {
		x.Reasons = append(x.Reasons, a.activeReasons(i)...)
		return x
	}
	// Out: what the chat did, then what recursion did.
	switch {
	case window <= 0 || len(a.msgs) == 0:
		x.Reasons = append(x.Reasons, "no message was scanned for keywords (scan window "+strconv.Itoa(max(window, 0))+", "+plural(len(a.msgs), "message")+" in the transcript)")
	case st.secMiss != "":
		x.Reasons = append(x.Reasons, st.secMiss)
	case window >= len(a.msgs):
		x.Reasons = append(x.Reasons, fmt.Sprintf("no keyword matched in the %s of the transcript (scan window %d)", plural(len(a.msgs), "message"), window))
	default:
		x.Reasons = append(x.Reasons, fmt.Sprintf("no keyword matched in the last %s (scan window)", plural(window, "message")))
	}
	// A key that is a list typed into one field matches only where the whole
	// list is written: say so, or "no keyword matched" hides why.
	for _, kw := range e.Keywords {
		if parts, sep := match.SplitJoined(kw.Text); parts != nil {
			x.Reasons = append(x.Reasons, fmt.Sprintf("keyword %s is %d keywords joined by %q: it matches only where the whole text is written, never on %q alone (lint: joined-keywords; lore lint --fix splits it)",
				quoteKW(kw.Text), len(parts), sep, parts[0]))
		}
	}
	if st.older != "" {
		x.Reasons = append(x.Reasons, st.older)
	}
	x.Reasons = append(x.Reasons, st.recMiss...)
	if st.recMissMore > 0 {
		x.Reasons = append(x.Reasons, fmt.Sprintf("and %d more such matches in entries' content", st.recMissMore))
	}
	return x
}

func (a *activator) activeReasons(i int) []string {
	st := &a.st[i]
	var out []string
	if t := st.chat; t != nil {
		text := a.msgs[t.msg].Content
		out = append(out, fmt.Sprintf("keyword %s matched in message:%d: %s", quoteKW(a.keywordOf(a.book, t.hit)), t.msg,
			snippet(text, t.hit.Start, t.hit.End)))
		if st.nSecondary > 0 {
			out = append(out, a.secondarySentence(i, t.sec, true, "the scan window"))
		}
		msgs := unionDesc(t.msgs)
		if len(msgs) > 1 {
			const maxList = 5
			var others []string
			for _, m := range msgs[1:min(len(msgs), maxList+1)] {
				others = append(others, "message:"+strconv.Itoa(m))
			}
			more := ""
			if n := len(msgs) - 1 - len(others); n > 0 {
				more = fmt.Sprintf(" and %d more", n)
			}
			out = append(out, fmt.Sprintf("also matched in %s%s (%s in %s of the scan window)",
				strings.Join(others, ", "), more, plural(st.active.Hits, "keyword hit"), plural(len(msgs), "message")))
		}
		return out
	}
	if lists := st.active.ParentLists; len(lists) > 0 {
		out = append(out, fmt.Sprintf("keyword %s matched in the content of entry %s (recursion level %d): %s",
			quoteKW(a.keywordOf(a.book, st.recHit)), strings.TrimPrefix(st.active.Trigger.In, "entry:"), st.active.Level,
			snippet(st.recText, st.recHit.Start, st.recHit.End)))
		if others, more := otherParents(lists, strings.TrimPrefix(st.active.Trigger.In, "entry:"), 5); len(others) > 0 {
			out = append(out, "also activated at that level by the content of "+strings.Join(others, ", ")+more)
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
func otherParents(lists [][]string, first string, limit int) ([]string, string) {
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
		return out, fmt.Sprintf(" and %d more", total-1-len(out))
	case len(lists) > 1 && total > len(seen):
		return out, " and others"
	}
	return out, ""
}

// quoteKW quotes a keyword for a sentence without escaping its backslashes,
// so a regular expression reads as the creator wrote it.
func quoteKW(s string) string { return "\"" + s + "\"" }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
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

// secondarySentence explains the secondary logic's verdict on one text.
func (a *activator) secondarySentence(i int, sec []int, holds bool, where string) string {
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
			matched = append(matched, quoteKW(kw.Text))
		} else {
			missing = append(missing, quoteKW(kw.Text))
		}
	}
	verdict := "holds"
	if !holds {
		verdict = "fails"
	}
	var detail string
	switch {
	case len(matched) == 0:
		detail = "none of " + strings.Join(missing, ", ") + " matched"
	case len(missing) == 0 && len(matched) == 1:
		detail = matched[0] + " matched"
	case len(missing) == 0:
		detail = "all of " + strings.Join(matched, ", ") + " matched"
	default:
		detail = strings.Join(matched, ", ") + " matched (" + strings.Join(missing, ", ") + " did not)"
	}
	return "secondary logic " + logic + " " + verdict + " in " + where + ": " + detail
}
