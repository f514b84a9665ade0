// Package lore is lore's own engine (--engine lore, the default): SPEC §1–§4
// as the seed documents describe it, with Unicode-correct matching. It owns
// activation (keywords, secondary logic, conditions, recursion), the 13-step
// assembly, and the two-pass scan window of SPEC §4, and it budgets with
// render.Budget. It must not know about other engines, read files or print.
package lore

import (
	"sync"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Name is the engine's id.
const Name = "lore"

// Engine is lore's own engine as a render.Engine. It keeps the keyword index
// of each lorebook it rendered, so the many renders of one lorebook that
// `lore test` (turns, runs of seeds) and `render --runs` make build the
// automaton once. A lorebook must not change between renders of one Engine.
type Engine struct {
	mu      sync.Mutex
	indexes map[*schema.Lorebook]*keywordIndex
}

// New returns lore's engine.
func New() *Engine { return &Engine{} }

// index returns book's keyword index, built on first use.
func (eng *Engine) index(book *schema.Lorebook) *keywordIndex {
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if kw, ok := eng.indexes[book]; ok {
		return kw
	}
	if eng.indexes == nil {
		eng.indexes = map[*schema.Lorebook]*keywordIndex{}
	}
	kw := newKeywordIndex(book)
	eng.indexes[book] = kw
	return kw
}

// Name is "lore".
func (*Engine) Name() string { return Name }

// Profile is lore's engine as data (render.Profile): Unicode word
// boundaries, recursion by levels up to recursionLimit, SPEC §4's budget.
var Profile = render.Profile{
	Name: Name, Title: "lore", New: func() render.Engine { return New() },
	WordRune:  match.IsWordRune,
	Recursion: render.RecursionLevels, Budget: render.BudgetShares, AlwaysSent: render.AlwaysInBudget,
	Reads: render.EntryFields,
}

// Profile is lore's Profile.
func (*Engine) Profile() *render.Profile { return &Profile }

// SizeUp sizes what the lorebook always sends (see the package function SizeUp).
func (*Engine) SizeUp(in *render.Input) *render.Sizing { return SizeUp(in) }

// Render renders one prompt (see the package function Render).
func (eng *Engine) Render(in *render.Input) (*render.Result, error) {
	in, err := render.Prepare(in)
	if err != nil {
		return nil, err
	}
	return renderWith(in, eng.index(in.Book))
}

// Render activates, assembles and budgets one prompt. The trigger scan window
// depends on the cards' share, which depends on what is always sent, so
// activation runs twice: once with the default window to measure the Required
// pieces, then with the window they leave (SPEC §4).
func Render(in *render.Input) (*render.Result, error) {
	in, err := render.Prepare(in)
	if err != nil {
		return nil, err
	}
	return renderWith(in, newKeywordIndex(in.Book))
}

// renderWith is Render on a prepared input with the lorebook's keyword index
// built.
func renderWith(in *render.Input, kw *keywordIndex) (*render.Result, error) {
	res := &render.Result{Engine: Name, Book: in.Book, Breakpoint: -1, Warnings: render.LongKeywords(in.Book)}
	if _, err := render.ApplyTransforms(in.Book, in.Transcript.Messages); err != nil {
		res.Warnings = append(res.Warnings, "a transform was skipped: "+err.Error())
	}

	pre := assembleRequired(in, activate(in, kw, 0))
	window := render.ScanWindow(pre, in.Settings, in.Counter)
	act := activate(in, kw, window)
	pieces := Assemble(in, act)
	kept, report := render.BudgetWith(pieces, in.Settings, in.Counter, render.BudgetOptions{SentOnly: in.SentOnly})
	kept = dropEmptyMemoryHeader(kept)

	res.Report = report
	res.Messages = toMessages(kept)
	for i, m := range res.Messages {
		if m.Step < render.StepBreakpoint {
			res.Breakpoint = i
		}
	}
	idx := indexActivation(act)
	res.Activated = activatedOut(kept, idx)
	out := res.Activated
	res.ExplainLater(func() map[string]*render.Explanation { return explain(in, act, idx, pieces, kept, out, report) })
	if l := in.MacroBudget().Limit(in.Book); l != "" {
		res.Limits = append(res.Limits, l)
	}
	return res, nil
}

// dropEmptyMemoryHeader removes the "[Memory]" header when the budget left
// out every memory item.
func dropEmptyMemoryHeader(kept []render.Piece) []render.Piece {
	out := kept[:0:0]
	for i, p := range kept {
		if p.Step == render.StepMemory && p.Section == "" &&
			(i+1 == len(kept) || kept[i+1].Section != render.SecMemory) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// toMessages makes one message per piece, except that the memory header and
// its items become one message: SPEC §7 names the whole block `memory`.
func toMessages(kept []render.Piece) []render.Message {
	var out []render.Message
	for _, p := range kept {
		if p.Section == render.SecMemory && len(out) > 0 {
			last := &out[len(out)-1]
			if last.Step == render.StepMemory {
				last.Content += "\n" + p.Content
				last.Cut = last.Cut || p.Cut
				last.Section = render.SecMemory
				continue
			}
		}
		out = append(out, render.Message{Role: p.Role, Content: p.Content, Step: p.Step,
			Sources: append([]string{}, p.Sources...), Section: p.Section, Cut: p.Cut})
	}
	return out
}

// activatedOut lists the entries of the kept pieces, in prompt order, once.
func activatedOut(kept []render.Piece, idx entryIndex) []render.ActivatedOut {
	var out []render.ActivatedOut
	seen := map[string]bool{}
	for _, p := range kept {
		x := idx.of(p)
		if x == nil || seen[x.Entry.ID] {
			continue
		}
		seen[x.Entry.ID] = true
		a := render.ActivatedOut{ID: x.Entry.ID, Step: p.Step, Trigger: x.Trigger, Recursion: x.Level}
		switch {
		case x.Entry.Role == render.RoleGreeting:
			a.Kind = "greeting"
		case x.Entry.IsConstant():
			a.Kind = "constant"
		}
		if p.Step == render.StepHistory && x.Entry.Section == schema.SectionChatHistory && x.Entry.Depth != nil {
			d := *x.Entry.Depth
			a.Depth = &d
		}
		out = append(out, a)
	}
	return out
}

// entryIndex maps entry ids to their activation, to find the entry behind a
// piece: a piece is an entry's when its Key is that entry's id (markers and
// presets have other keys).
type entryIndex map[string]*render.Activated

func indexActivation(act *Activation) entryIndex {
	idx := entryIndex{}
	if act == nil {
		return idx
	}
	for _, x := range act.Active {
		if x != nil && x.Entry != nil {
			if _, ok := idx[x.Entry.ID]; !ok {
				idx[x.Entry.ID] = x
			}
		}
	}
	return idx
}

// of returns the activated entry behind a piece, or nil.
func (idx entryIndex) of(p render.Piece) *render.Activated {
	if p.Card != nil && p.Card.Entry != nil {
		return p.Card
	}
	return idx[p.Key]
}

// explain merges activation's reasons with what assembly and the budget did.
func explain(in *render.Input, act *Activation, idx entryIndex, pieces, kept []render.Piece, out []render.ActivatedOut, r *render.Report) map[string]*render.Explanation {
	res := map[string]*render.Explanation{}
	var why map[string]*render.Explanation
	if act != nil {
		why = act.Why()
	}
	for _, e := range in.Book.Entries {
		// Activation's explanation, which assembly and the budget add to:
		// the activation is this render's own.
		x := &render.Explanation{}
		if why[e.ID] != nil {
			x = why[e.ID]
		}
		res[e.ID] = x
	}
	inPrompt := map[string]bool{}
	for _, a := range out {
		inPrompt[a.ID] = true
	}
	// An examples entry is several pieces; count how many of each entry's
	// pieces the budget kept.
	assembled := map[string]render.Piece{}
	nAssembled, nKept := map[string]int{}, map[string]int{}
	for _, p := range pieces {
		if x := idx.of(p); x != nil {
			if _, ok := assembled[x.Entry.ID]; !ok {
				assembled[x.Entry.ID] = p
			}
			nAssembled[x.Entry.ID]++
		}
	}
	cut := map[string]render.Piece{}
	for _, p := range kept {
		if x := idx.of(p); x != nil {
			nKept[x.Entry.ID]++
			if p.Cut {
				cut[x.Entry.ID] = p
			}
		}
	}
	opens := len(in.Transcript.Messages) > 0 && in.Transcript.Messages[0].Role == "assistant"
	for _, e := range in.Book.Entries {
		x := res[e.ID]
		if !x.Active {
			continue
		}
		p, wasAssembled := assembled[e.ID]
		switch {
		case e.Role == render.RoleGreeting && opens:
			x.Reasons = append(x.Reasons, at(e, reason.LoreGreetingNotSent, "role"))
		case !wasAssembled:
			x.Reasons = append(x.Reasons, at(e, reason.LoreEmptyAfterMacros, "content"))
		case !inPrompt[e.ID]:
			x.Reasons = append(x.Reasons, onField(e, budgetReason(p, r)))
		case cut[e.ID].Cut:
			x.Reasons = append(x.Reasons, onField(e, cutReason(cut[e.ID], r)))
		}
		if inPrompt[e.ID] && nKept[e.ID] < nAssembled[e.ID] {
			x.Reasons = append(x.Reasons, at(e, reason.LoreExamplesCut, "content",
				reason.P("dropped", nAssembled[e.ID]-nKept[e.ID]), reason.P("of", nAssembled[e.ID]), reason.P("cap", requiredCap(r))))
		}
	}
	return res
}

// budgetReason says why the budget left an assembled entry out, from the
// report's note on it.
func budgetReason(p render.Piece, r *render.Report) reason.Reason {
	budget := -1
	var note []reason.Param
	if r != nil {
		if sec := r.Section(p.Section); sec != nil {
			budget = sec.Budget
			if n := r.Note(p.Section, p.Key, false); n != nil {
				note = []reason.Param{reason.P("note", n.Why), reason.P("tokens", n.Tokens)}
			}
		}
	}
	switch p.Section {
	case render.SecCards, render.SecHistory, render.SecMemory:
		return reason.New(reason.LoreBudgetShare, "content", schema.Pos{},
			append([]reason.Param{reason.P("section", p.Section), reason.P("budget", budget)}, note...)...)
	}
	return reason.New(reason.LoreBudgetRequired, "content", schema.Pos{},
		append([]reason.Param{reason.P("budget", budget), reason.P("section", p.Section)}, note...)...)
}

func requiredCap(r *render.Report) int {
	if r == nil {
		return 0
	}
	return r.RequiredCap
}

// cutReason says how much of a cut entry is left.
func cutReason(p render.Piece, r *render.Report) reason.Reason {
	if r != nil {
		if n := r.Note(p.Section, p.Key, true); n != nil {
			return reason.New(reason.LoreCut, "content", schema.Pos{},
				reason.P("from", n.Tokens), reason.P("to", n.Kept), reason.P("cap", r.RequiredCap))
		}
	}
	return reason.New(reason.LoreCutUnsized, "content", schema.Pos{})
}
