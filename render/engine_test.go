package render

import (
	"strconv"
	"testing"

	"github.com/lorekit/lore/schema"
)

// lengthEngine reports the chat length it was given as its only message.
type lengthEngine struct{}

func (lengthEngine) Name() string { return "length" }
func (lengthEngine) Render(in *Input) (*Result, error) {
	return &Result{Messages: []Message{{Content: strconv.Itoa(len(in.Transcript.Messages))}}}, nil
}

func TestRenderTurnsPrefixes(t *testing.T) {
	tr := &schema.Transcript{Messages: make([]schema.Message, 5)}
	res, err := RenderTurns(lengthEngine{}, &Input{Transcript: tr}, []int{1, 3, 5})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res {
		got = append(got, r.Messages[0].Content)
	}
	if len(got) != 3 || got[0] != "1" || got[1] != "3" || got[2] != "5" {
		t.Errorf("turns rendered chat lengths %v, want [1 3 5]", got)
	}
	if len(tr.Messages) != 5 {
		t.Errorf("the transcript was changed: %d messages", len(tr.Messages))
	}
	if _, err := RenderTurns(lengthEngine{}, &Input{Transcript: tr}, []int{6}); err == nil {
		t.Error("a turn past the transcript's end was accepted")
	}
}
