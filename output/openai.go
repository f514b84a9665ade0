package output

import (
	"io"

	"github.com/lorekit/lore/render"
)

// openaiOutput is a Chat Completions request body without the model:
// {"messages": [{"role", "name" (when the engine names the speaker), "content"}]}. It prints the object rather than the
// bare array so that it can be POSTed after adding "model" (jq '. + {model: …}'),
// and so that every render format prints one JSON object.
type openaiOutput struct{}

type openaiMessage struct {
	Role    string `json:"role"`
	Name    string `json:"name,omitempty"`
	Content string `json:"content"`
}

func (openaiOutput) Write(w io.Writer, r *render.Result) error {
	msgs := make([]openaiMessage, 0, len(r.Messages))
	for _, m := range r.Messages {
		msgs = append(msgs, openaiMessage{Role: m.Role, Name: m.Name, Content: m.Content})
	}
	return writeJSON(w, struct {
		Messages []openaiMessage `json:"messages"`
	}{msgs})
}
