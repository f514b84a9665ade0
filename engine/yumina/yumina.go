// Package yumina is the yumina engine (--engine yumina): the prompt Yumina's
// own code sends for a lorebook and a chat, piece for piece — its lorebook
// matcher (activation, recursion, scoring, its lorebook budget) and its
// server's send path (placement and message grouping), with Yumina's
// defaults where a lorebook leaves a value unset. It is checked against
// Yumina's code, run headless as an oracle, by the conformance corpus under
// testdata/ (docs/engines.md lists where Yumina differs from lore).
//
// It owns only Yumina's rules: matching is package match's (with JavaScript
// folding, word boundaries and regular expressions), tokens are the
// tokenizer's, output is package output's. It must not contain Yumina's code
// or a translation of it, read files or print.
package yumina

import (
	"strings"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/tokenize"
)

// Name is the engine's id.
const Name = "yumina"

// Engine is Yumina's engine as a render.Engine.
type Engine struct{}

// New returns Yumina's engine.
func New() *Engine { return &Engine{} }

// Name is "yumina".
func (*Engine) Name() string { return Name }

// Render renders one prompt (see the package function Render).
func (*Engine) Render(in *render.Input) (*render.Result, error) { return Render(in) }

// Render activates, budgets and places the lorebook's entries for the chat as
// Yumina does.
func Render(in *render.Input) (*render.Result, error) {
	r, err := run(in)
	if err != nil {
		return nil, err
	}
	return r.res, nil
}

// rendered is a render with what led to it (the conformance tests compare
// Yumina's matcher output too).
type rendered struct {
	res    *render.Result
	a      *activator
	b      budgeted
	always []*entry
}

func run(in *render.Input) (*rendered, error) {
	in, err := render.Prepare(in)
	if err != nil {
		return nil, err
	}
	s, warnings, err := settingsOf(in)
	if err != nil {
		return nil, err
	}
	es := entries(in.Book)
	vars := render.CurrentValues(in.Book, in.Vars)

	a := newActivator(es, vars, s.recursion)
	msgs := in.Transcript.Messages
	a.first = s.window(len(msgs))
	for _, m := range msgs[a.first:] {
		a.window = append(a.window, m.Content)
	}
	a.run()
	b := applyBudget(a.ranked(), s.budget(), in.Counter)

	asm := &assembler{in: in, es: es, triggered: b.kept,
		macros: &macros{char: charName(es), user: render.NewMacros(in).User(), seed: in.Seed, vars: vars, budget: in.MacroBudget()}}
	for _, e := range es {
		if e.Enabled && e.alwaysSend && !e.variableBound() && e.Role != roleGreeting {
			asm.always = append(asm.always, e)
		}
	}
	res := &render.Result{Engine: Name, Book: in.Book, Breakpoint: -1,
		Warnings: append(append(warnings, loreOnly(in)...), render.LongKeywords(in.Book)...), Limits: a.stoppedKeys()}
	res.Messages = asm.assemble()
	for i, m := range res.Messages {
		if m.Step < render.StepBreakpoint {
			res.Breakpoint = i
		}
	}
	res.Activated = activatedOut(res.Messages, a)
	res.Report = report(in, s, b, res.Messages)
	res.SetExplanations(explain(in, s, es, a, b, res))
	if l := in.MacroBudget().Limit(in.Book); l != "" {
		res.Limits = append(res.Limits, l)
	}
	return &rendered{res: res, a: a, b: b, always: asm.always}, nil
}

// budgeted is the lorebook budget's decision.
type budgeted struct {
	budget, used int
	kept         []*entry
	keptAct      []*activation
	dropped      []*activation
	// stop is the first entry that did not fit (the others after it are
	// dropped without being weighed).
	stop       *activation
	stopTokens int
}

// applyBudget keeps matched entries in rank order until one does not fit,
// and drops it and every one after it; the first is kept whatever its size.
// Tokens are counted on the raw content, as Yumina does, with the lorebook's
// tokenizer.
func applyBudget(ranked []*activation, budget int, c tokenize.Counter) budgeted {
	b := budgeted{budget: budget}
	for i, x := range ranked {
		t := c.Count(x.entry.Content)
		if b.used+t > budget && len(b.kept) > 0 {
			b.stop, b.stopTokens, b.dropped = x, t, ranked[i:]
			break
		}
		b.kept = append(b.kept, x.entry)
		b.keptAct = append(b.keptAct, x)
		b.used += t
	}
	return b
}

// activatedOut lists the entries in the prompt, in prompt order, once each.
func activatedOut(msgs []render.Message, a *activator) []render.ActivatedOut {
	var out []render.ActivatedOut
	seen := map[string]bool{}
	byID := map[string]*entry{}
	for _, e := range a.es {
		if _, dup := byID[e.ID]; !dup {
			byID[e.ID] = e
		}
	}
	for _, m := range msgs {
		for _, id := range m.Sources {
			e := byID[id]
			if e == nil || seen[id] {
				continue
			}
			seen[id] = true
			o := render.ActivatedOut{ID: id, Step: m.Step, Trigger: render.Trigger{In: "always"}}
			if x := a.byEntry[e.idx]; x != nil {
				o.Recursion = x.level
				if x.kw >= 0 {
					o.Trigger.Keyword = a.keywordText(x.kw)
					o.Trigger.In, _ = a.locate(x.at)
				} else {
					o.Trigger.In = "conditions" // Yumina activates a keyword-less entry whose conditions hold
				}
			}
			if m.Step == render.StepHistory && e.depth != nil {
				d := *e.depth
				o.Depth = &d
			}
			out = append(out, o)
		}
	}
	return out
}

// report is the token report: the whole prompt, and Yumina's one budget, the
// matched entries' share.
func report(in *render.Input, s settings, b budgeted, msgs []render.Message) *render.Report {
	// Yumina has no Required part: everything available is the rest.
	avail := max(0, s.maxContext-in.Settings.ResponseReserve)
	r := &render.Report{Tokenizer: in.Counter.Name(), ContextTokens: s.maxContext,
		Available: avail, Reserve: in.Settings.ResponseReserve, Remainder: avail}
	for _, m := range msgs {
		r.Total += in.Counter.Count(m.Content)
	}
	sec := render.SectionReport{Name: "lorebook", Class: "dynamic", Tokens: b.used, Budget: b.budget, Dropped: []string{}}
	for _, x := range b.dropped {
		sec.Dropped = append(sec.Dropped, x.entry.ID)
		sec.Notes = append(sec.Notes, render.Note{Key: x.entry.ID, Tokens: in.Counter.Count(x.entry.Content),
			Why: "the lorebook budget stops at the first matched entry that does not fit"})
	}
	r.Sections = []render.SectionReport{sec}
	return r
}

// loreOnly warns about what the lorebook or transcript holds that only lore's
// engine sends.
func loreOnly(in *render.Input) []string {
	var what []string
	m := in.Book.Manifest
	if len(m.Presets) > 0 {
		what = append(what, "presets")
	}
	if len(m.Transforms) > 0 {
		what = append(what, "transforms")
	}
	if strings.TrimSpace(m.Format) != "" {
		what = append(what, "the format text")
	}
	if p := m.Persona; p != nil && (p.Appearance != "" || p.Backstory != "") ||
		in.Transcript.Persona != nil && (in.Transcript.Persona.Appearance != "" || in.Transcript.Persona.Backstory != "") {
		what = append(what, "the persona block")
	}
	t := in.Transcript
	if strings.TrimSpace(t.Summary) != "" || len(t.Memory) > 0 || len(t.Pending) > 0 {
		what = append(what, "the transcript's summary, memory and pending effects")
	}
	if len(what) == 0 {
		return nil
	}
	return []string{"the yumina engine does not send " + strings.Join(what, ", ") + " (lore's own features): left out"}
}
