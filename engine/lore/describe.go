package lore

import (
	"strings"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Describe says what lore's engine does with each entry, whatever the chat
// (render.Describer): lint compares it with the other engines'.
func (*Engine) Describe(in *render.Input) *render.Description {
	out := make([]render.Fate, len(in.Book.Entries))
	for i, e := range in.Book.Entries {
		if e != nil {
			out[i] = describe(e)
		}
	}
	return &render.Description{Fates: out, Recursive: in.Settings.RecursionLimit > 0}
}

func describe(e *schema.Entry) render.Fate {
	switch {
	case !e.Enabled:
		return render.Never(at(e, reason.NeverDisabled, "enabled"))
	case e.AlwaysSend:
		return render.Fate{Activation: "always", Placement: placement(e)}
	case !hasKeywords(e.Keywords):
		if e.Section == schema.SectionChatHistory {
			return render.Never(at(e, reason.LoreNeverNoKeywordsChat, "keywords"))
		}
		return render.Never(at(e, reason.LoreNeverNoKeywords, "alwaysSend", reason.P("section", e.Section)))
	}
	return render.Fate{Activation: "keywords", Placement: placement(e)}
}

// placement is where lore's assembly puts an activated entry (SPEC §3).
func placement(e *schema.Entry) reason.Reason {
	if e.Role == render.RoleGreeting {
		return at(e, reason.LorePlaceGreeting, "role")
	}
	switch e.Section {
	case schema.SectionSystemPresets:
		return at(e, reason.PlaceSystemPresets, "section")
	case schema.SectionExamples:
		return at(e, reason.PlaceExamples, "section")
	case schema.SectionPostHistory:
		return at(e, reason.PlacePostHistory, "section")
	case schema.SectionChatHistory:
		if e.Depth == nil {
			return at(e, reason.PlaceTriggered, "section")
		}
		after := *e.Depth + 1 // depth k goes before the k-th newest message, counted from 0
		if *e.Depth < 0 {
			after = 1 // lint's depth-ignored: placed just before the newest message
		}
		return onField(e, render.HistoryPlace(after, *e.Depth, ""))
	}
	return at(e, reason.LorePlaceSection, "section", reason.P("section", e.Section))
}

func hasKeywords(ks []schema.Keyword) bool {
	for _, k := range ks {
		if strings.TrimSpace(k.Text) != "" {
			return true
		}
	}
	return false
}
