package yumina

import (
	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Describe says what Yumina's code does with each entry, whatever the chat
// (render.Describer), in the terms of docs/engines.md's Yumina table: lint
// reports the entries it can never send and, with engine-divergence, where
// it treats an entry otherwise than lore.
func (*Engine) Describe(in *render.Input) *render.Description {
	out := make([]render.Fate, len(in.Book.Entries))
	for _, e := range entries(in.Book) {
		out[e.idx] = e.fate()
	}
	recursion := 0
	if s, _, err := settingsOf(in); err == nil {
		recursion = s.recursion
	}
	return &render.Description{Fates: out, Recursive: recursion > 0, Budget: lorebookBudget(in)}
}

func (e *entry) fate() render.Fate {
	var f render.Fate
	keywords := false
	for _, k := range e.Keywords {
		keywords = keywords || k.Text != ""
	}
	switch {
	case !e.Enabled && !e.variableBound():
		return render.Never(at(e, reason.NeverDisabled, "enabled"))
	case e.Role == roleGreeting:
		// Not lost: it is the chat's first message, which the transcript holds.
		return render.Fate{Activation: "always", Placement: at(e, reason.YuminaPlaceGreeting, "role")}
	case e.alwaysSend && !e.variableBound():
		f.Activation = "always"
	case keywords:
		f.Activation = "keywords"
	case e.variableBound():
		f.Activation = "conditions"
	case e.defaultAlwaysSend:
		return render.Never(at(e, reason.YuminaNeverUnset, "alwaysSend"))
	default:
		return render.Never(at(e, reason.YuminaNeverNoWayIn, "alwaysSend"))
	}
	if !e.Enabled {
		// A disabled entry with conditions is matched for recursion only:
		// its content activates others, it is not sent itself (Y10).
		return render.Fate{Activation: f.Activation, Never: at(e, reason.YuminaNeverDisabled, "enabled")}
	}
	f.Placement, f.Never = e.placement(f.Activation == "always")
	return f
}

// placement is where Yumina's send path puts the entry when it is in, or why
// it puts it nowhere.
func (e *entry) placement(always bool) (place, never reason.Reason) {
	switch {
	case e.Role == roleExample && !always:
		return place, at(e, reason.YuminaNeverExample, "role")
	case e.Role == roleExample:
		return at(e, reason.PlaceExamples, "role"), never
	case e.Section == schema.SectionPostHistory:
		return at(e, reason.PlacePostHistory, "section"), never
	case e.chatHistory() && e.depth == nil:
		return place, at(e, reason.YuminaNeverNoDepth, "depth")
	case e.chatHistory():
		var of []reason.Param
		if e.defaultDepth {
			of = append(of, reason.P("defaultOf", Profile.Title))
		}
		r := render.HistoryPlace(*e.depth, *e.depth, "", of...)
		r.Pos = e.FieldPos("depth")
		return r, never
	case always:
		return at(e, reason.PlaceSystemPresets, "section"), never // Yumina's system messages, where lore's system presets go
	}
	return at(e, reason.PlaceTriggered, "section"), never
}
