package sillytavern

import (
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// SizeUp is `lore tokens` without a chat (render.Sizer): the prompt a new
// chat opens with, and every World Info entry's size against the World Info
// budget, in the book's order. An entry over the whole budget can never go
// in, unless it ignores the budget: SillyTavern stops a pass at the first
// entry that overflows it.
func (eng *Engine) SizeUp(in *render.Input) *render.Sizing {
	local := *in
	local.Transcript = &schema.Transcript{}
	if in.Transcript != nil {
		local.Transcript.Persona = in.Transcript.Persona
	}
	res, err := eng.Render(&local)
	if err != nil {
		return &render.Sizing{Report: &render.Report{}, Limits: []string{err.Error()}}
	}
	sz := &render.Sizing{Report: res.Report, Limits: res.Limits}
	if wi := res.Report.Section("world-info"); wi != nil {
		sz.CardsShare = wi.Budget
	}
	counter := in.Counter
	if counter == nil {
		if counter, err = tokenize.Get(in.Settings.Tokenizer); err != nil {
			return sz
		}
	}
	byID := map[*schema.Entry]*entry{}
	for _, e := range eng.load(in.Book).entries {
		byID[e.src] = e
	}
	for _, src := range in.Book.Entries {
		e := byID[src]
		if e == nil || e.disable {
			continue
		}
		n := countText(counter, e.content)
		sz.Cards = append(sz.Cards, render.CardSize{Entry: src, Tokens: n, Over: n > sz.CardsShare && !e.ignoreBudget})
	}
	return sz
}
