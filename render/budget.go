package render

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// Budget sections of SPEC §4, named as in the report contract of SPEC §7.
const (
	budgetLastAction     = "last-action"
	budgetFrontMemory    = "front-memory"
	budgetPostHistory    = "post-history"
	budgetPlotEssentials = "plot-essentials"
	budgetSystemPresets  = "system-presets"
	budgetSummary        = "summary"
	budgetExamples       = "examples"
	budgetCards          = "cards"
	budgetHistory        = "history"
	budgetMemory         = "memory"
)

// BudgetSections lists the report's sections in their fixed order: Required
// ones in priority order, then Dynamic ones in the order they are filled.
func BudgetSections() []string {
	return []string{budgetLastAction, budgetFrontMemory, budgetPostHistory, budgetPlotEssentials,
		budgetSystemPresets, budgetSummary, budgetExamples, budgetCards, budgetHistory, budgetMemory}
}

// Assembly steps (SPEC §3) whose markers belong to a budget section.
const (
	stepExamples = 4
	stepMemory   = 9
)

// requiredPriority is the order in which Required sections take the cap once
// the always-full items (last action, front memory, markers) are in.
var requiredPriority = []string{budgetPostHistory, budgetPlotEssentials, budgetSystemPresets, budgetSummary, budgetExamples}

// floorShare is floor(share × n), with a tolerance so that shares written in
// decimal (0.29 × 100 = 28.999…) give the number a person computes.
func floorShare(share float64, n int) int {
	if n <= 0 || share <= 0 {
		return 0
	}
	v := int(math.Floor(share*float64(n) + 1e-9))
	return min(max(v, 0), n)
}

// RequiredCapTokens is floor(requiredCap × available), the report's requiredCap.
func RequiredCapTokens(s schema.Settings) int { return floorShare(s.RequiredCap, s.Available()) }

// pieceState is the budget's decision about one piece.
type pieceState struct {
	tokens int    // tokens of the (possibly cut) content
	whole  int    // tokens of the content as assembled
	text   string // the cut content, when cut
	kept   bool   // in the prompt
	cut    bool   // content truncated
	why    string // why it was left out or cut (report text)
	group  string // budget section it counts against ("" = always kept, outside every section)
	// unweighed: left out without being counted (BudgetOptions.SentOnly):
	// the report names it but gives it no note or size.
	unweighed bool
}

type budgeter struct {
	pieces []Piece
	s      schema.Settings
	c      tokenize.Counter
	st     []pieceState
	// bySection holds piece indexes per section, in prompt order.
	bySection    map[string][]int
	capTokens    int
	reqUsed      int // Required tokens kept, markers included
	budgets      map[string]int
	historyShare float64
	lazy         bool // history pieces are counted when weighed (BudgetOptions.SentOnly)
}

func newBudgeter(pieces []Piece, s schema.Settings, c tokenize.Counter, o BudgetOptions) *budgeter {
	b := &budgeter{pieces: pieces, s: s, c: c, st: make([]pieceState, len(pieces)),
		bySection: map[string][]int{}, capTokens: RequiredCapTokens(s), budgets: map[string]int{}, lazy: o.SentOnly}
	known := map[string]bool{}
	for _, n := range BudgetSections() {
		known[n] = true
	}
	var texts []string
	var counted []int
	for i, p := range pieces {
		g := p.Section
		// A marker that introduces a section's pieces belongs to it: an
		// [Example Chat] marker costs examples tokens and goes when its
		// examples go; the [Memory] header is paid from the memory bank and
		// goes when no item is kept. Other markers ([Start a new Chat]) and
		// unknown sections are always sent.
		if g == "" {
			switch p.Step {
			case stepExamples:
				g = budgetExamples
			case stepMemory:
				g = budgetMemory
			}
		}
		if !known[g] {
			g = ""
		}
		b.st[i] = pieceState{group: g, unweighed: b.lazy && g == budgetHistory}
		b.bySection[g] = append(b.bySection[g], i)
		if !b.st[i].unweighed {
			texts = append(texts, p.Content)
			counted = append(counted, i)
		}
	}
	for k, n := range tokenize.CountAll(c, texts) {
		b.st[counted[k]].tokens, b.st[counted[k]].whole = n, n
	}
	return b
}

// BudgetOptions say what a caller of BudgetWith needs besides the prompt.
type BudgetOptions struct {
	// SentOnly: the caller shows what is sent, not the sizes of what was
	// left out, so history is counted newest first and only until the first
	// message that does not fit; the older ones, left out unweighed, have
	// no size in the report's notes and largest entries. A 20,000-message
	// chat then costs what the part of it that fits does.
	SentOnly bool
}

func (b *budgeter) remainder() int { return max(b.s.Available()-b.reqUsed, 0) }

func (b *budgeter) keep(i int) { b.st[i].kept = true }

func (b *budgeter) drop(i int, why string) { b.st[i].kept = false; b.st[i].why = why }

// required applies SPEC §4's Required rule. Last action, front memory and
// markers are always whole. The other Required sections, in priority order and
// each in prompt order, take what is left of the cap; the first piece that
// does not fit is cut at its end on a token boundary, and every piece after it
// (in that section or a lower one) is left out. Under the cap all is whole.
func (b *budgeter) required() {
	always := []string{"", budgetLastAction, budgetFrontMemory}
	total := 0
	for _, g := range append(always, requiredPriority...) {
		for _, i := range b.bySection[g] {
			total += b.st[i].tokens
		}
	}
	for _, g := range always {
		for _, i := range b.bySection[g] {
			b.keep(i)
			b.reqUsed += b.st[i].tokens
		}
	}
	for _, g := range requiredPriority {
		b.budgets[g] = b.capTokens
	}
	if total <= b.capTokens {
		for _, g := range requiredPriority {
			for _, i := range b.bySection[g] {
				b.keep(i)
				b.reqUsed += b.st[i].tokens
			}
		}
		return
	}
	left := b.capTokens - b.reqUsed
	full := false // a piece has been cut or refused: everything lower is out
	for _, g := range requiredPriority {
		for _, i := range b.bySection[g] {
			t := b.st[i].tokens
			switch {
			case full:
				b.drop(i, "Required is over the cap and higher-priority pieces filled it")
			case t <= left:
				b.keep(i)
				left -= t
				b.reqUsed += t
			default:
				full = true
				p := &b.pieces[i]
				// Markers are never cut: a half marker means nothing.
				var cutText string
				if p.Section != "" && left > 0 {
					cutText = b.c.Truncate(p.Content, left)
				}
				if cutText == "" {
					b.drop(i, "Required is over the cap and no room was left for it")
					continue
				}
				n := b.c.Count(cutText)
				b.st[i] = pieceState{tokens: n, whole: t, text: cutText, kept: true, cut: true, group: g,
					why: "cut at its end to fit the Required cap"}
				left -= n
				b.reqUsed += n
			}
		}
	}
	b.dropOrphanMarkers()
}

// dropOrphanMarkers leaves out an [Example Chat] marker whose examples were
// all left out by the cap.
func (b *budgeter) dropOrphanMarkers() {
	idx := b.bySection[budgetExamples]
	for k, i := range idx {
		if b.pieces[i].Section != "" || !b.st[i].kept {
			continue
		}
		followed := false
		for _, j := range idx[k+1:] {
			if b.pieces[j].Section == "" {
				break
			}
			if b.st[j].kept {
				followed = true
				break
			}
		}
		if !followed {
			b.drop(i, "its examples were left out")
			b.reqUsed -= b.st[i].tokens
		}
	}
}

// Budget applies SPEC §4 to the assembled pieces (in prompt order): it returns
// the pieces that stay, in the same order, with cut pieces shortened and marked
// Cut, and the report of what each section holds and what was left out.
//
// Decisions where SPEC §4 is silent (docs/decisions.md):
//   - markers cost tokens; [Example Chat] markers count as examples, others are
//     always sent with the last action and front memory;
//   - within a Required section, pieces compete in prompt order;
//   - history's share is shares.history, plus shares.memory when the transcript
//     has no memory items (0.50 + 0.25 = SPEC's 75 %); memory gets the rest of R;
//   - memory items are ranked by the number of distinct words they share with
//     the last action (ties: transcript order) and taken greedily, skipping an
//     item that does not fit, like cards; kept items stay in transcript order;
//   - a recursion-activated card is left out when none of its parents is in.
//
// Budget sorts the cards and memory items once: O(n log n) in the pieces, plus
// one token count per distinct text.
func Budget(pieces []Piece, s schema.Settings, c tokenize.Counter) ([]Piece, *Report) {
	return BudgetWith(pieces, s, c, BudgetOptions{})
}

// BudgetWith is Budget for a caller that needs less than the whole report
// (BudgetOptions); the prompt is the same.
func BudgetWith(pieces []Piece, s schema.Settings, c tokenize.Counter, o BudgetOptions) ([]Piece, *Report) {
	b := newBudgeter(pieces, s, c, o)
	b.required()
	r := b.remainder()

	hasMemory := len(b.bySection[budgetMemory]) > 0
	b.historyShare = s.Shares.History
	if !hasMemory {
		b.historyShare += s.Shares.Memory
	}
	cardsBudget := floorShare(s.Shares.Cards, r)
	cardsUsed := b.cards(cardsBudget)
	// History also takes what cards left unused, but never more than cards
	// left of R: shares that add up to more than 1 must not overfill Dynamic.
	historyBudget := min(floorShare(b.historyShare, r)+(cardsBudget-cardsUsed), r-cardsUsed)
	historyUsed := b.history(historyBudget)
	memoryBudget := max(r-cardsUsed-historyUsed, 0)
	b.memory(memoryBudget)
	b.budgets[budgetCards] = cardsBudget
	b.budgets[budgetHistory] = historyBudget
	b.budgets[budgetMemory] = memoryBudget

	kept := make([]Piece, 0, len(pieces))
	for i, p := range pieces {
		if !b.st[i].kept {
			continue
		}
		if b.st[i].cut {
			p.Content = b.st[i].text
			p.Cut = true
		}
		kept = append(kept, p)
	}
	return kept, b.report(r)
}

// cards ranks the story cards and takes them greedily within budget.
func (b *budgeter) cards(budget int) int {
	idx := rankCards(b.pieces, b.bySection[budgetCards])
	// A card's parent may be an entry of another section (a keyword-activated
	// system-presets or post-history entry); Required is decided before the
	// cards, so such a parent is in the prompt when its piece was kept.
	keptIDs := map[string]bool{}
	for g, list := range b.bySection {
		if g == budgetCards {
			continue
		}
		for _, i := range list {
			if b.st[i].kept && b.pieces[i].Key != "" {
				keptIDs[b.pieces[i].Key] = true
			}
		}
	}
	used := 0
	parents := parentMemo{}
	for _, i := range idx {
		a := b.pieces[i].Card
		if a != nil && a.Level > 0 && len(a.ParentLists) > 0 && !parents.anyKept(a.ParentLists, keptIDs) {
			b.drop(i, "activated only through entries that were left out")
			continue
		}
		if t := b.st[i].tokens; used+t <= budget {
			b.keep(i)
			used += t
			if a != nil && a.Entry != nil {
				keptIDs[a.Entry.ID] = true
			}
		} else {
			b.drop(i, "did not fit in the "+tokensLeft(budget-used)+" of the cards share")
		}
	}
	return used
}

// parentMemo remembers, per shared parent list, whether one of its entries
// is in the prompt. Cards are taken by recursion level, so every parent of a
// level-n card (level n-1, or another section, decided before the cards) is
// settled when the first card of level n asks: the answer cannot change, and
// each list is read once however many cards share it.
type parentMemo map[*string]bool

func (m parentMemo) anyKept(lists [][]string, kept map[string]bool) bool {
	for _, l := range lists {
		if len(l) == 0 {
			continue
		}
		in, ok := m[&l[0]]
		if !ok {
			for _, id := range l {
				if kept[id] {
					in = true
					break
				}
			}
			m[&l[0]] = in
		}
		if in {
			return true
		}
	}
	return false
}

// cardKey is a card's sort key, computed once so the sort compares flat
// values instead of chasing pointers.
type cardKey struct {
	piece      int
	rank       int
	last, hits int // chat-activated: newest trigger, hit count
	level      int // recursion-activated
	position   int
	id         string
}

// rankCards returns the card pieces' indexes in SPEC §4's ranking order.
func rankCards(pieces []Piece, idx []int) []int {
	keys := make([]cardKey, len(idx))
	for k, i := range idx {
		a := pieces[i].Card
		ck := cardKey{piece: i, rank: cardRank(a)}
		if a != nil {
			ck.last, ck.hits, ck.level = a.LastMessage, a.Hits, a.Level
			if a.Entry != nil {
				ck.position, ck.id = a.Entry.Position, a.Entry.ID
			}
		}
		keys[k] = ck
	}
	slices.SortFunc(keys, compareCardKeys)
	out := make([]int, len(keys))
	for k, ck := range keys {
		out[k] = ck.piece
	}
	return out
}

func compareCardKeys(a, b cardKey) int {
	if a.rank != b.rank || a.rank == 3 {
		return cmp.Compare(a.rank, b.rank)
	}
	switch a.rank {
	case 1:
		if c := cmp.Compare(b.last, a.last); c != 0 {
			return c
		}
		if c := cmp.Compare(b.hits, a.hits); c != 0 {
			return c
		}
	case 2:
		if c := cmp.Compare(a.level, b.level); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(a.position, b.position); c != 0 {
		return c
	}
	if c := cmp.Compare(a.id, b.id); c != 0 {
		return c
	}
	return cmp.Compare(a.piece, b.piece) // prompt order: a total order, so SortFunc is deterministic
}

// cardRank: constant cards, then chat-activated, then recursion-activated.
// Within them (compareCardKeys), SPEC §4: constant cards by position and id;
// chat-activated by the recency of their latest trigger (newest first), hit
// count (more first), position, id; recursion-activated by level, position,
// id.
func cardRank(a *Activated) int {
	switch {
	case a == nil:
		return 3
	case a.Entry != nil && a.Entry.IsConstant():
		return 0
	case a.Level == 0:
		return 1
	}
	return 2
}

// history takes the messages before the latest, newest first, until one does
// not fit; every older message is left out with it, so history has no gaps.
func (b *budgeter) history(budget int) int {
	idx := b.bySection[budgetHistory]
	used := 0
	stopped, older := "", ""
	for k := len(idx) - 1; k >= 0; k-- {
		i := idx[k]
		if stopped == "" && b.st[i].unweighed {
			n := b.c.Count(b.pieces[i].Content)
			b.st[i].tokens, b.st[i].whole, b.st[i].unweighed = n, n, false
		}
		t := b.st[i].tokens
		switch {
		case stopped != "":
			if older == "" {
				older = "older than " + stopped + ", which did not fit (history has no gaps)"
			}
			b.drop(i, older)
		case used+t <= budget:
			b.keep(i)
			used += t
		default:
			stopped = keyOf(b.pieces[i])
			b.drop(i, "did not fit in the "+tokensLeft(budget-used)+" of the history share")
		}
	}
	return used
}

func keyOf(p Piece) string {
	if p.Key != "" {
		return p.Key
	}
	return p.Section
}

// tokensLeft reads "1 token left", "7 tokens left".
func tokensLeft(n int) string {
	if n == 1 {
		return "1 token left"
	}
	return strconv.Itoa(n) + " tokens left"
}
