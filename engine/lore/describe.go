package lore

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// Describe says what lore's engine does with each entry, whatever the chat
// (render.Describer): lint compares it with the other engines'.
func (*Engine) Describe(in *render.Input) []render.Fate {
	out := make([]render.Fate, len(in.Book.Entries))
	for i, e := range in.Book.Entries {
		if e != nil {
			out[i] = describe(e)
		}
	}
	return out
}

func describe(e *schema.Entry) render.Fate {
	f := render.Fate{Placement: placement(e)}
	switch {
	case !e.Enabled:
		f.Activation, f.Placement, f.Never = "never", "", "it is disabled (enabled: false)"
	case e.AlwaysSend:
		f.Activation = "always"
	case !hasKeywords(e.Keywords):
		f.Activation, f.Placement = "never", ""
		if e.Section == schema.SectionChatHistory {
			f.Never = "a chat-history entry needs keywords, or alwaysSend: true to be constant"
		} else {
			f.Never = "alwaysSend: false on a " + e.Section + " entry without keywords; add keywords or remove alwaysSend: false"
		}
	default:
		f.Activation = "keywords"
	}
	return f
}

// placement is where lore's assembly puts an activated entry (SPEC §3).
func placement(e *schema.Entry) string {
	if e.Role == render.RoleGreeting {
		return "the chat's opening assistant message (step 10), unless the transcript opens with one"
	}
	switch e.Section {
	case schema.SectionSystemPresets:
		return "system presets (step 1)"
	case schema.SectionExamples:
		return "example dialogue (step 4)"
	case schema.SectionPostHistory:
		return "post-history (step 13)"
	case schema.SectionChatHistory:
		if e.Depth == nil {
			return "the triggered block (step 6)"
		}
		after := *e.Depth + 1 // depth k goes before the k-th newest message, counted from 0
		if *e.Depth < 0 {
			after = 1 // lint's depth-ignored: placed just before the newest message
		}
		return render.HistoryPlace(after, fmt.Sprintf("depth %d", *e.Depth))
	}
	return "section " + e.Section
}

func hasKeywords(ks []schema.Keyword) bool {
	for _, k := range ks {
		if strings.TrimSpace(k.Text) != "" {
			return true
		}
	}
	return false
}
