package lore

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
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

	why func() map[string]*render.Explanation // Why, made once when first asked
}

// Why has one explanation per entry id, for every entry of the lorebook,
// enabled or not. It is made when first asked: a render's first activation
// only measures what is always sent, and nothing asks it why.
func (act *Activation) Why() map[string]*render.Explanation {
	if act.why == nil {
		return nil
	}
	return act.why()
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
//   - every other entry needs a primary keyword to match in one of the last
//     `window` messages (each message on its own: a keyword never spans two),
//     then its secondary logic to hold in the same text — anywhere in the
//     window — or, by recursion, in the macro-expanded content of an entry
//     activated by keywords or constant (always-sent entries of other
//     sections are not scanned);
//   - recursion levels: chat and constants are level 0, an entry activated by
//     a level-n entry's content is level n+1, up to settings.RecursionLimit (0
//     turns recursion off); an entry activates once, at its lowest level, with
//     every entry whose content activated it at that level as its parents.
//
// window <= 0 scans no message: only always-sent and constant entries, and
// recursion from the constants, are in. Messages are scanned after the
// manifest's transforms.
//
// All keywords of the lorebook go into one match.Matcher, built once; each
// message and each content is run through it once. What a text holds is
// summed up per matcher group (one group per distinct normalised keyword),
// and each entry then looks up its own keywords in those summaries: the work
// is linear in the texts' length plus the number of keywords, however many
// entries share one keyword.
func Activate(in *render.Input, window int) *Activation {
	return activate(in, nil, window)
}

// activate is Activate with a keyword index already built for in.Book (nil:
// build one). Render activates twice and builds the index once.
func activate(in *render.Input, kw *keywordIndex, window int) *Activation {
	a := newActivator(in, kw)
	a.chat(window)
	a.recurse()
	return a.result(window)
}

type entryState struct {
	eligible   bool // enabled and conditions hold
	byKeywords bool // eligible, not always sent: needs keywords
	nPrimary   int  // usable (non-blank) primary keywords
	nSecondary int  // usable secondary keywords
	active     *render.Activated
	chat       *chatTrigger  // the scan window's verdict, when a primary matched there
	secMiss    reason.Reason // why the secondary logic failed in the scan window
	older      reason.Reason // a keyword hit before the scan window
	// recursion detail for the explanation
	recVisit    int             // 1 + the level last examined for it (0: never)
	recHit      match.Hit       // the first keyword hit in its first parent's content
	recText     string          // that content, macros expanded
	recMiss     []reason.Reason // the first few content matches that did not activate it
	recMissMore int             // and how many more
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
	// tally is scratch for one text: what each matcher group holds in it.
	tally   []groupTally
	touched []int
	// win sums the scan window up per matcher group (winSlot[g] is g's index
	// in win, -1 when g did not occur there).
	win     []windowGroup
	winSlot []int32
	// noMatch is the reason of the entries no keyword of which matched in
	// the scan window (windowReason).
	noMatch reason.Reason
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
	a.tally = make([]groupTally, a.matcher.NumGroups())
	for i, e := range entries {
		st := &a.st[i]
		if e == nil || !e.Enabled {
			continue
		}
		ok := render.ConditionsHold(e, a.values) // explain says why
		st.eligible = ok
		st.byKeywords = ok && !e.AlwaysSend
		st.nPrimary = a.keywordIndex.nPrimary[i]
		st.nSecondary = a.keywordIndex.nSecondary[i]
	}
	return a
}

// groupTally is what one text holds of one matcher group: how many
// occurrences, how many at word boundaries, and the first of each.
type groupTally struct {
	n, nb               int
	first, firstBounded [2]int
}

// mode picks the occurrences a pattern counts: 1 (only those at word
// boundaries) for a pattern that asked for whole words, else 0 (all).
func (a *activator) mode(p int) int {
	if a.matcher.WantsBoundaries(p) {
		return 1
	}
	return 0
}

// count and first give the tally of one mode.
func (t *groupTally) count(mode int) int {
	if mode == 1 {
		return t.nb
	}
	return t.n
}

func (t *groupTally) firstOf(mode int) [2]int {
	if mode == 1 {
		return t.firstBounded
	}
	return t.first
}

// tallyText runs the matcher over text once and tallies its occurrences per
// group; it returns the groups that occurred. The caller reads a.tally for
// them, then calls clearTally.
func (a *activator) tallyText(text string) []int {
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
	return touched
}

func (a *activator) clearTally(touched []int) {
	for _, g := range touched {
		a.tally[g] = groupTally{}
	}
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

// earlierHit says hit h, in the same text as best, is the one to report: the
// lower start, then the lower pattern.
func earlierHit(h, best match.Hit) bool {
	return h.Start < best.Start || h.Start == best.Start && h.Pattern < best.Pattern
}

// result gathers Active and how to explain every entry (Activation.Why).
func (a *activator) result(window int) *Activation {
	act := &Activation{}
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
	act.why = sync.OnceValue(func() map[string]*render.Explanation {
		// Only an explanation reads what came before the window: a
		// render nobody asks why pays for neither.
		a.beforeWindow(window)
		why := make(map[string]*render.Explanation, len(a.book.Entries))
		for i, e := range a.book.Entries {
			if e == nil {
				continue
			}
			if _, dup := why[e.ID]; dup {
				continue // duplicate id (lint's duplicate-id): the first one explains
			}
			why[e.ID] = a.explain(i, window)
		}
		return why
	})
	return act
}

// promptKey is what Active is sorted by: section (SPEC §3 order; unknown
// sections after, by name), recursion level, position, id, file order.
type promptKey struct {
	rank, level, position, index int
	section, id                  string
}

func (a *activator) promptKey(i int) promptKey {
	e := a.book.Entries[i]
	k := promptKey{rank: sectionRank(e.Section), level: a.level(i), position: e.Position, index: i, id: e.ID}
	if k.rank == len(sectionOrder) {
		k.section = e.Section
	}
	return k
}

func comparePromptKeys(x, y promptKey) int {
	return cmp.Or(cmp.Compare(x.rank, y.rank), strings.Compare(x.section, y.section), cmp.Compare(x.level, y.level),
		cmp.Compare(x.position, y.position), strings.Compare(x.id, y.id), cmp.Compare(x.index, y.index))
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

// sortByPrompt sorts entry indexes as Active is sorted, computing each key
// once.
func (a *activator) sortByPrompt(idx []int) {
	keys := make([]promptKey, len(idx))
	for k, i := range idx {
		keys[k] = a.promptKey(i)
	}
	slices.SortFunc(keys, comparePromptKeys)
	for k := range keys {
		idx[k] = keys[k].index
	}
}
