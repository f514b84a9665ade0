package yumina

import (
	"fmt"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Describe says what Yumina's code does with each entry, whatever the chat
// (render.Describer), in the terms of docs/engines.md's Yumina table: lint
// reports the entries it can never send and, with engine-divergence, where
// it treats an entry otherwise than lore.
func (*Engine) Describe(in *render.Input) []render.Fate {
	out := make([]render.Fate, len(in.Book.Entries))
	for _, e := range entries(in.Book) {
		out[e.idx] = e.fate()
	}
	return out
}

func (e *entry) fate() render.Fate {
	var f render.Fate
	keywords := false
	for _, k := range e.Keywords {
		keywords = keywords || k.Text != ""
	}
	switch {
	case !e.Enabled && !e.variableBound():
		return render.Fate{Activation: "never", Never: "it is disabled (enabled: false)"}
	case e.Role == roleGreeting:
		// Not lost: it is the chat's first message, which the transcript holds.
		return render.Fate{Activation: "always",
			Placement: "the chat's first message, which a Yumina session opens with, so the transcript holds it (docs/engines.md Y24)"}
	case e.alwaysSend && !e.variableBound():
		f.Activation = "always"
	case keywords:
		f.Activation = "keywords"
	case e.variableBound():
		f.Activation = "conditions"
	case e.defaultAlwaysSend:
		return render.Fate{Activation: "never",
			Never: "Yumina's alwaysSend is false when unset, in every section, and the entry has no keywords or conditions; set alwaysSend: true (docs/engines.md Y11)"}
	default:
		return render.Fate{Activation: "never",
			Never: "alwaysSend: false and no keywords or conditions: nothing activates it in Yumina"}
	}
	if !e.Enabled {
		// A disabled entry with conditions is matched for recursion only:
		// its content activates others, it is not sent itself (Y10).
		return render.Fate{Activation: f.Activation, Never: "it is disabled: Yumina still matches it for its conditions, but sends it nowhere (docs/engines.md Y10)"}
	}
	f.Placement, f.Never = e.placement(f.Activation == "always")
	return f
}

// placement is where Yumina's send path puts the entry when it is in, or why
// it puts it nowhere.
func (e *entry) placement(always bool) (string, string) {
	switch {
	case e.Role == roleExample && !always:
		return "", "Yumina parses example dialogue only from always-sent entries: a matched example entry is sent nowhere; set alwaysSend: true (docs/engines.md Y22)"
	case e.Role == roleExample:
		return "example dialogue (step 4)", ""
	case e.Section == schema.SectionPostHistory:
		return "post-history (step 13)", ""
	case e.chatHistory() && e.depth == nil:
		return "", "Yumina sends a chat-history entry with depth: null nowhere; give it a depth (docs/engines.md Y17)"
	case e.chatHistory():
		depth := fmt.Sprintf("depth %d", *e.depth)
		if e.defaultDepth {
			depth += ", Yumina's default"
		}
		return render.HistoryPlace(*e.depth, depth), ""
	case always:
		return "system presets (step 1)", "" // Yumina's system messages, where lore's system presets go
	}
	return "the triggered block (step 6)", ""
}
