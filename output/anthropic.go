package output

import (
	"io"
	"strings"

	"github.com/lorekit/lore/render"
)

// anthropicOutput is a Messages API request body without the model:
// {"system": [text blocks], "messages": [{"role", "content": [text blocks]}]}.
//
// The Messages API has no system role inside `messages`, wants user and
// assistant to alternate, and rejects empty text blocks. So:
//   - `system` takes the leading system messages of the prompt, up to the
//     first marker ([Example Chat], [Start a new Chat]) and never past the
//     cache breakpoint: the stable head of the prompt;
//   - every later system message (markers, triggered entries, summary,
//     memory, state) is sent as a user text block, unchanged;
//   - consecutive messages of one role become one message with one text block
//     each, so message boundaries (and `sources`) stay visible;
//   - the API has no per-message name: a named message's text starts with
//     "name: " (as SillyTavern does for Claude);
//   - if the first message would be the assistant's, a user "[Start]" block
//     goes before it; empty messages are skipped;
//   - `cache_control: {"type": "ephemeral"}` marks the block of the last
//     message before the breakpoint (SPEC §3 step 5).
type anthropicOutput struct{}

type anthropicBlock struct {
	Type         string        `json:"type"`
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type cacheControl struct {
	Type string `json:"type"`
}

type anthropicMessage struct {
	Role    string            `json:"role"`
	Content []*anthropicBlock `json:"content"`
}

func (anthropicOutput) Write(w io.Writer, r *render.Result) error {
	var system []*anthropicBlock
	var msgs []*anthropicMessage
	var last *anthropicBlock // the block of the latest non-empty message
	inSystem := true
	for i, m := range r.Messages {
		isMarker := m.Content == render.MarkerExampleChat || m.Content == render.MarkerStartChat
		if inSystem && (m.Role != "system" || isMarker || m.Step >= render.StepBreakpoint) {
			inSystem = false
		}
		if strings.TrimSpace(m.Content) != "" {
			text := m.Content
			if m.Name != "" {
				text = m.Name + ": " + text
			}
			b := &anthropicBlock{Type: "text", Text: text}
			last = b
			if inSystem {
				system = append(system, b)
			} else {
				role := m.Role
				if role != "assistant" {
					role = "user"
				}
				if len(msgs) == 0 && role == "assistant" {
					msgs = append(msgs, &anthropicMessage{Role: "user",
						Content: []*anthropicBlock{{Type: "text", Text: "[Start]"}}})
				}
				if n := len(msgs); n > 0 && msgs[n-1].Role == role {
					msgs[n-1].Content = append(msgs[n-1].Content, b)
				} else {
					msgs = append(msgs, &anthropicMessage{Role: role, Content: []*anthropicBlock{b}})
				}
			}
		}
		if i == r.Breakpoint && last != nil {
			last.CacheControl = &cacheControl{Type: "ephemeral"}
		}
	}
	if msgs == nil {
		msgs = []*anthropicMessage{}
	}
	return writeJSON(w, struct {
		System   []*anthropicBlock   `json:"system,omitempty"`
		Messages []*anthropicMessage `json:"messages"`
	}{system, msgs})
}
