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

// Activation is which entries are in the prompt before the budget, and why
// every entry is in or out.
type Activation struct {
	// Active lists every entry that is in: always sent, constant, activated by
	// keywords in the chat or by recursion; sorted by section (SPEC §3 order),
	// then recursion level, position and id.
	Active []*render.Activated
	// Why has one explanation per entry id, for every entry of the lorebook,
	// enabled or not.
	Why map[string]*render.Explanation
}

// sectionOrder is SPEC §3's order of the sections; unknown sections (the
// schema rejects them) sort after, by name.
var sectionOrder = map[string]int{
	schema.SectionSystemPresets: 0,
	schema.SectionExamples:      1,
	schema.SectionChatHistory:   2,
	schema.SectionPostHistory:   3,
}

// Activate decides which entries are in (SPEC §1):
//
//   - disabled entries never are, and an entry whose conditions are false is
//     out whatever its section, keywords or alwaysSend;
//   - entries with alwaysSend (the default outside chat-history) are in, with
//     trigger "always"; chat-history entries with alwaysSend are the constant
//     entries;
//   - every other entry needs a primary keyword to match, then its secondary
//     logic to hold in the same text, in one of the last `window` messages
//     (each message on its own: a keyword never spans two) or, by recursion,
//     in the macro-expanded content of an entry activated by keywords or
//     constant (always-sent entries of other sections are not scanned);
//   - recursion levels: chat and constants are level 0, an entry activated by
//     a level-n entry's content is level n+1, up to settings.RecursionLimit (0
//     turns recursion off); an entry activates once, at its lowest level, with
//     every entry whose content activated it at that level as Parents.
//
// window <= 0 scans no message: only always-sent and constant entries, and
// recursion from the constants, are in. Messages are scanned after the
// manifest's transforms.
//
// All keywords of the lorebook go into one match.Matcher, built once; each
// message and each content is run through it once.
func Activate(in *render.Input, window int) *Activation {
	return activate(in, nil, window)
}

// activate is Activate with a keyword index already built for in.Book (nil:
// build one). Render activates twice and builds the index once.
func activate(in *render.Input, kw *keywordIndex, window int) *Activation {
	a := newActivator(in, kw)
	a.chat(window)
	a.recurse()
	a.beforeWindow(window)
	return a.result(window)
}

// kwRef is what a matcher pattern stands for.
type kwRef struct {
	entry     int
	secondary bool
	kw        int // index in Keywords or SecondaryKeywords
}

// chatTrigger is one message that triggered an entry.
type chatTrigger struct {
	msg  int
	hit  match.Hit // first primary hit in it
	hits int
	sec  []int // secondary keywords matched in the window (newest trigger only)
}

type entryState struct {
	eligible   bool // enabled and conditions hold
	byKeywords bool // eligible, not always sent: needs keywords
	nPrimary   int  // usable (non-blank) primary keywords
	nSecondary int  // usable secondary keywords
	active     *render.Activated
	condWhy    []string
	chat       []chatTrigger // triggering messages, oldest first
	secMiss    string        // why the secondary logic failed in the scan window
	older      string        // a keyword hit before the scan window
	// recursion detail for the explanation
	recHit     match.Hit
	recText    string
	recParents []*schema.Entry
	recMiss    []string
}

type activator struct {
	in     *render.Input
	book   *schema.Lorebook
	msgs   []schema.Message
	macros *render.Macros
	values map[string]any
	limit  int
	*keywordIndex
	st []entryState
	// scratch for scan: by entry, by matcher group
	slot    []int32
	tally   []groupTally
	touched []int
	// window, while the chat is scanned, marks each matcher group that
	// occurred somewhere in the scan window (seenAny) and at word boundaries
	// (seenBounded): secondary keywords are looked for in the whole window.
	window []uint8
}

const (
	seenAny     = 1
	seenBounded = 2
)

// keywordIndex is the matcher over every keyword that can activate an entry,
// with what each pattern stands for. It depends on the lorebook only (not on
// variables, the transcript or the window), so one render's activations share
// it: Render builds it once for both of its activations.
type keywordIndex struct {
	matcher *match.Matcher
	refs    []kwRef       // by pattern
	badKW   map[int]error // pattern → compile error
	// nPrimary and nSecondary count each entry's usable (non-blank)
	// keywords; groupPrimary lists each matcher group's primary patterns;
	// secPatterns each entry's secondary patterns.
	nPrimary, nSecondary []int
	groupPrimary         [][]int
	secPatterns          [][]int
}

// newKeywordIndex compiles the keywords of every enabled entry that is not
// always sent; conditions are applied when hits are read, so the index does
// not depend on the variables.
func newKeywordIndex(book *schema.Lorebook) *keywordIndex {
	x := &keywordIndex{
		nPrimary: make([]int, len(book.Entries)), nSecondary: make([]int, len(book.Entries))}
	var ps []match.Pattern
	for i, e := range book.Entries {
		if e == nil || !e.Enabled || e.AlwaysSend {
			continue
		}
		for k, kw := range e.Keywords {
			if strings.TrimSpace(kw.Text) == "" {
				continue
			}
			x.nPrimary[i]++
			x.refs = append(x.refs, kwRef{entry: i, kw: k})
			ps = append(ps, match.Pattern{Text: kw.Text, WholeWords: e.MatchWholeWords, Owner: i})
		}
		if x.nPrimary[i] == 0 {
			continue // no way in: its secondaries do not matter
		}
		for k, kw := range e.SecondaryKeywords {
			if strings.TrimSpace(kw.Text) == "" {
				continue
			}
			x.nSecondary[i]++
			x.refs = append(x.refs, kwRef{entry: i, secondary: true, kw: k})
			ps = append(ps, match.Pattern{Text: kw.Text, WholeWords: e.MatchWholeWords, Owner: i})
		}
	}
	m, errs := match.Compile(ps)
	x.matcher = m
	for _, err := range errs {
		if pe, ok := err.(*match.PatternError); ok {
			if x.badKW == nil {
				x.badKW = map[int]error{}
			}
			x.badKW[pe.Index] = pe.Err
		}
	}
	x.groupPrimary = make([][]int, m.NumGroups())
	x.secPatterns = make([][]int, len(book.Entries))
	for p, r := range x.refs {
		g := m.PatternGroup(p)
		switch {
		case r.secondary:
			x.secPatterns[r.entry] = append(x.secPatterns[r.entry], p)
		case g >= 0:
			x.groupPrimary[g] = append(x.groupPrimary[g], p)
		}
	}
	return x
}

func newActivator(in *render.Input, kw *keywordIndex) *activator {
	a := &activator{in: in, book: in.Book, limit: in.Settings.RecursionLimit}
	if a.book == nil {
		a.book = &schema.Lorebook{}
	}
	if in.Transcript != nil {
		a.msgs, _ = render.ApplyTransforms(a.book, in.Transcript.Messages) // Render reports a bad transform
	}
	a.macros = render.NewMacros(in)
	a.values = render.CurrentValues(a.book, in.Vars)
	if kw == nil {
		kw = newKeywordIndex(a.book)
	}
	a.keywordIndex = kw
	entries := a.book.Entries
	a.st = make([]entryState, len(entries))
	a.slot = make([]int32, len(entries))
	a.tally = make([]groupTally, a.matcher.NumGroups())
	for i, e := range entries {
		a.slot[i] = -1
		st := &a.st[i]
		if e == nil || !e.Enabled {
			continue
		}
		ok, why := render.EvalConditions(e, a.values, a.book, in.Vars)
		st.condWhy = why
		st.eligible = ok
		st.byKeywords = ok && !e.AlwaysSend
		st.nPrimary = a.keywordIndex.nPrimary[i]
		st.nSecondary = a.keywordIndex.nSecondary[i]
	}
	return a
}

// textMatch is what one text holds for one entry.
type textMatch struct {
	entry int
	first match.Hit // earliest primary hit
	hits  int       // primary hits
	sec   []int     // distinct secondary keyword indices matched, ascending
}

// groupTally aggregates one matcher group's occurrences in one text: how
// many, how many at word boundaries, and the first of each.
type groupTally struct {
	n, nb               int
	first, firstBounded [2]int
}

// scan runs the matcher over one text and groups what it found by entry,
// keeping only entries with a primary hit, in order of first appearance.
//
// Occurrences are tallied per matcher group first; then only the primary
// patterns of the groups that occurred are visited, and secondary keywords are
// looked up (in the tallies) only for entries that had a primary hit. A common
// word used as a secondary keyword by thousands of entries thus costs nothing
// for the entries whose primary did not match.
func (a *activator) scan(text string) []textMatch {
	touched := a.touched[:0]
	a.matcher.Occurrences(text, func(o match.Occurrence) {
		g := &a.tally[o.Group]
		if g.n == 0 {
			touched = append(touched, o.Group)
		}
		r := [2]int{o.Start, o.End}
		if g.n == 0 || less2(r, g.first) {
			g.first = r
		}
		g.n++
		if o.Bounded {
			if g.nb == 0 || less2(r, g.firstBounded) {
				g.firstBounded = r
			}
			g.nb++
		}
	})
	a.touched = touched
	if len(touched) == 0 {
		return nil
	}
	var out []textMatch
	for _, gi := range touched {
		g := &a.tally[gi]
		last := -1
		for _, p := range a.groupPrimary[gi] {
			n, first := g.n, g.first
			if a.matcher.WantsBoundaries(p) {
				n, first = g.nb, g.firstBounded
			}
			r := a.refs[p]
			if n == 0 || r.entry == last || !a.st[r.entry].byKeywords {
				continue // no hit for it, or another spelling of the entry's keyword
			}
			last = r.entry
			s := a.slot[r.entry]
			if s < 0 {
				s = int32(len(out))
				a.slot[r.entry] = s
				out = append(out, textMatch{entry: r.entry})
			}
			tm := &out[s]
			h := match.Hit{Pattern: p, Start: first[0], End: first[1]}
			if tm.hits == 0 || h.Start < tm.first.Start || h.Start == tm.first.Start && h.Pattern < tm.first.Pattern {
				tm.first = h
			}
			tm.hits += n
		}
	}
	for k := range out {
		tm := &out[k]
		a.slot[tm.entry] = -1
		for _, p := range a.secPatterns[tm.entry] {
			gi := a.matcher.PatternGroup(p)
			if gi < 0 {
				continue
			}
			n := a.tally[gi].n
			if a.matcher.WantsBoundaries(p) {
				n = a.tally[gi].nb
			}
			if kw := a.refs[p].kw; n > 0 && !containsInt(tm.sec, kw) {
				tm.sec = append(tm.sec, kw)
			}
		}
		sort.Ints(tm.sec)
	}
	for _, gi := range touched {
		if a.window != nil {
			if a.tally[gi].n > 0 {
				a.window[gi] |= seenAny
			}
			if a.tally[gi].nb > 0 {
				a.window[gi] |= seenBounded
			}
		}
		a.tally[gi] = groupTally{}
	}
	return out
}

// windowSecondaries lists the secondary keywords of entry i (by index,
// ascending) that occurred anywhere in the scan window.
func (a *activator) windowSecondaries(i int) []int {
	var sec []int
	for _, p := range a.secPatterns[i] {
		gi := a.matcher.PatternGroup(p)
		if gi < 0 {
			continue
		}
		want := uint8(seenAny)
		if a.matcher.WantsBoundaries(p) {
			want = seenBounded
		}
		if kw := a.refs[p].kw; a.window[gi]&want != 0 && !containsInt(sec, kw) {
			sec = append(sec, kw)
		}
	}
	sort.Ints(sec)
	return sec
}

func less2(a, b [2]int) bool { return a[0] < b[0] || a[0] == b[0] && a[1] < b[1] }

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
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

// chat scans the last `window` messages.
func (a *activator) chat(window int) {
	start := len(a.msgs) - max(window, 0)
	if start < 0 {
		start = 0
	}
	a.window = make([]uint8, a.matcher.NumGroups())
	for mi := start; mi < len(a.msgs); mi++ {
		for _, tm := range a.scan(a.msgs[mi].Content) {
			st := &a.st[tm.entry]
			if st.byKeywords {
				st.chat = append(st.chat, chatTrigger{msg: mi, hit: tm.first, hits: tm.hits})
			}
		}
	}
	// Secondary keywords count wherever they are in the window, like the
	// primary; a keyword itself never spans two messages.
	for i := range a.st {
		st := &a.st[i]
		if len(st.chat) == 0 || st.nSecondary == 0 {
			continue
		}
		sec := a.windowSecondaries(i)
		if !a.secondaryHolds(i, sec) {
			newest := st.chat[len(st.chat)-1]
			st.secMiss = fmt.Sprintf("keyword %s matched in message:%d: %s, but %s",
				quoteKW(a.keywordOf(newest.hit)), newest.msg, snippet(a.msgs[newest.msg].Content, newest.hit.Start, newest.hit.End),
				a.secondarySentence(i, sec, false, "the scan window"))
			st.chat = nil
			continue
		}
		st.chat[len(st.chat)-1].sec = sec
	}
	a.window = nil
	for i, e := range a.book.Entries {
		st := &a.st[i]
		if !st.eligible {
			continue
		}
		switch {
		case len(st.chat) > 0:
			newest := st.chat[len(st.chat)-1]
			hits := 0
			for _, t := range st.chat {
				hits += t.hits
			}
			st.active = &render.Activated{Entry: e, Level: 0, Hits: hits, LastMessage: newest.msg,
				Trigger: render.Trigger{Keyword: a.keywordOf(newest.hit), In: "message:" + strconv.Itoa(newest.msg)}}
		case e.AlwaysSend:
			st.active = &render.Activated{Entry: e, Trigger: render.Trigger{In: "always"}, LastMessage: -1}
		}
	}
}

func (a *activator) keywordOf(h match.Hit) string {
	r := a.refs[h.Pattern]
	e := a.book.Entries[r.entry]
	if r.secondary {
		return e.SecondaryKeywords[r.kw].Text
	}
	return e.Keywords[r.kw].Text
}

// olderScanLimit bounds how far back beforeWindow looks: it only improves an
// explanation, and must not make a long chat slow to render.
const olderScanLimit = 1000

// beforeWindow looks, newest first, at messages older than the scan window
// for keywords of entries that are out, so the explanation can say "it
// matched, but before the window" — the usual surprise when a long chat
// stops sending an entry. Secondary keywords are not checked here.
func (a *activator) beforeWindow(window int) {
	if window <= 0 {
		return
	}
	want := 0
	for i := range a.st {
		if a.st[i].byKeywords && a.st[i].active == nil && a.st[i].nPrimary > 0 {
			want++
		}
	}
	end := len(a.msgs) - window
	for mi := end - 1; mi >= 0 && mi >= end-olderScanLimit && want > 0; mi-- {
		for _, tm := range a.scan(a.msgs[mi].Content) {
			st := &a.st[tm.entry]
			if st.active != nil || st.older != "" {
				continue
			}
			st.older = fmt.Sprintf("keyword %s matched in message:%d, before the scan window: %s",
				quoteKW(a.keywordOf(tm.first)), mi, snippet(a.msgs[mi].Content, tm.first.Start, tm.first.End))
			want--
		}
	}
}

// scannable reports an active entry whose content is scanned for recursion:
// activated by keywords, or constant.
func (a *activator) scannable(i int) bool {
	st := &a.st[i]
	if st.active == nil {
		return false
	}
	e := a.book.Entries[i]
	return st.byKeywords || e.IsConstant()
}

// recurse scans the content of activated entries level by level. Content is
// scanned even where it cannot activate anything (preventRecursion, the last
// level, recursion off) so the explanation can say what it would have done.
func (a *activator) recurse() {
	var frontier []int
	for i := range a.book.Entries {
		if a.scannable(i) {
			frontier = append(frontier, i)
		}
	}
	for level := 0; len(frontier) > 0; level++ {
		a.sortByPrompt(frontier)
		var next []int
		for _, p := range frontier {
			parent := a.book.Entries[p]
			content := a.macros.Expand(parent.Content)
			for _, tm := range a.scan(content) {
				c := tm.entry
				st := &a.st[c]
				if !st.byKeywords || c == p {
					continue
				}
				// A parent appears once per level and scan reports each entry once
				// per text, so a repeated parent can only be the last one added:
				// checking it keeps this linear when thousands of contents
				// activate one entry.
				if st.active != nil && (st.active.Level <= level || st.active.Level == level+1 && st.recParents[len(st.recParents)-1] == parent) {
					continue
				}
				kw := quoteKW(a.keywordOf(tm.first))
				where := "keyword " + kw + " matched in the content of entry " + parent.ID
				if !a.secondaryHolds(c, tm.sec) {
					st.recMiss = append(st.recMiss, where+", but "+a.secondarySentence(c, tm.sec, false, "that content"))
					continue
				}
				switch {
				case parent.PreventRecursion:
					st.recMiss = append(st.recMiss, where+", but "+parent.ID+" has preventRecursion: its content activates nothing")
					continue
				case a.book.Entries[c].ExcludeRecursion:
					st.recMiss = append(st.recMiss, where+", but this entry has excludeRecursion: only chat messages can activate it")
					continue
				case a.limit <= 0:
					st.recMiss = append(st.recMiss, where+", but recursion is off (recursionLimit 0)")
					continue
				case level+1 > a.limit:
					st.recMiss = append(st.recMiss, fmt.Sprintf("%s, but that would be recursion level %d, above recursionLimit %d", where, level+1, a.limit))
					continue
				}
				if st.active == nil {
					st.active = &render.Activated{Entry: a.book.Entries[c], Level: level + 1, LastMessage: -1,
						Trigger: render.Trigger{Keyword: a.keywordOf(tm.first), In: "entry:" + parent.ID}}
					st.recHit = tm.first
					st.recText = content
					next = append(next, c)
				}
				st.active.Parents = append(st.active.Parents, parent.ID)
				st.recParents = append(st.recParents, parent)
			}
		}
		frontier = next
	}
}

// less orders entries as Active is sorted: section, level, position, id (and
// file order for duplicate ids).
func (a *activator) less(i, j int) bool {
	ei, ej := a.book.Entries[i], a.book.Entries[j]
	si, sj := sectionRank(ei.Section), sectionRank(ej.Section)
	if si != sj {
		return si < sj
	}
	if si == len(sectionOrder) && ei.Section != ej.Section {
		return ei.Section < ej.Section
	}
	li, lj := a.level(i), a.level(j)
	if li != lj {
		return li < lj
	}
	if ei.Position != ej.Position {
		return ei.Position < ej.Position
	}
	if ei.ID != ej.ID {
		return ei.ID < ej.ID
	}
	return i < j
}

func (a *activator) level(i int) int {
	if x := a.st[i].active; x != nil {
		return x.Level
	}
	return 0
}

func sectionRank(s string) int {
	if r, ok := sectionOrder[s]; ok {
		return r
	}
	return len(sectionOrder)
}

func (a *activator) sortByPrompt(idx []int) {
	sort.Slice(idx, func(x, y int) bool { return a.less(idx[x], idx[y]) })
}

// result gathers Active and writes every entry's explanation.
func (a *activator) result(window int) *Activation {
	act := &Activation{Why: make(map[string]*render.Explanation, len(a.book.Entries))}
	var idx []int
	for i := range a.book.Entries {
		if a.st[i].active != nil {
			idx = append(idx, i)
		}
	}
	a.sortByPrompt(idx)
	for _, i := range idx {
		act.Active = append(act.Active, a.st[i].active)
	}
	for i, e := range a.book.Entries {
		if e == nil {
			continue
		}
		if _, dup := act.Why[e.ID]; dup {
			continue // duplicate id (lint's duplicate-id): the first one explains
		}
		act.Why[e.ID] = a.explain(i, window)
	}
	return act
}

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
	if st.older != "" {
		x.Reasons = append(x.Reasons, st.older)
	}
	const maxRec = 3
	for k, r := range st.recMiss {
		if k == maxRec {
			x.Reasons = append(x.Reasons, fmt.Sprintf("and %d more such matches in entries' content", len(st.recMiss)-maxRec))
			break
		}
		x.Reasons = append(x.Reasons, r)
	}
	return x
}

func (a *activator) activeReasons(i int) []string {
	st := &a.st[i]
	var out []string
	if len(st.chat) > 0 {
		newest := st.chat[len(st.chat)-1]
		text := a.msgs[newest.msg].Content
		out = append(out, fmt.Sprintf("keyword %s matched in message:%d: %s", quoteKW(a.keywordOf(newest.hit)), newest.msg,
			snippet(text, newest.hit.Start, newest.hit.End)))
		if a.st[i].nSecondary > 0 {
			out = append(out, a.secondarySentence(i, newest.sec, true, "the scan window"))
		}
		if len(st.chat) > 1 {
			var others []string
			const maxList = 5
			for k := len(st.chat) - 2; k >= 0 && len(others) < maxList; k-- {
				others = append(others, "message:"+strconv.Itoa(st.chat[k].msg))
			}
			more := ""
			if n := len(st.chat) - 1 - len(others); n > 0 {
				more = fmt.Sprintf(" and %d more", n)
			}
			out = append(out, fmt.Sprintf("also matched in %s%s (%s in %s of the scan window)",
				strings.Join(others, ", "), more, plural(st.active.Hits, "keyword hit"), plural(len(st.chat), "message")))
		}
		return out
	}
	if len(st.recParents) > 0 {
		p := st.recParents[0]
		out = append(out, fmt.Sprintf("keyword %s matched in the content of entry %s (recursion level %d): %s",
			quoteKW(a.keywordOf(st.recHit)), p.ID, st.active.Level, snippet(st.recText, st.recHit.Start, st.recHit.End)))
		if len(st.recParents) > 1 {
			var ids []string
			for _, q := range st.recParents[1:] {
				ids = append(ids, q.ID)
			}
			out = append(out, "also activated at that level by the content of "+strings.Join(ids, ", "))
		}
	}
	return out
}

// patternError is the compile error of one keyword, if any.
func (a *activator) patternError(entry int, secondary bool, kw int) error {
	if len(a.badKW) == 0 {
		return nil
	}
	for p, err := range a.badKW {
		r := a.refs[p]
		if r.entry == entry && r.secondary == secondary && r.kw == kw {
			return err
		}
	}
	return nil
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
