package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lorekit/lore/render"
)

// The turn writer streams the same bytes as the whole document it replaced
// ({"turns": [...]} written at once), for no, one and several turns; JSON
// Lines is one compact object per turn.
func TestTurnWriterStreamsTheDocument(t *testing.T) {
	d := 2
	all := []*render.Result{
		{Activated: []render.ActivatedOut{{ID: "storm <&>", Step: 1, Depth: &d, Trigger: render.Trigger{Keyword: "storm", In: "message:0"}}},
			Effects: []render.Effect{{ID: "storm <&>", Kind: "sticky", Start: 1, End: 3}}},
		{},
		{Activated: []render.ActivatedOut{{ID: "calm", Step: 6}}},
	}
	for n := 0; n <= len(all); n++ {
		rs, lengths := all[:n], []int{1, 2, 5}[:n]
		type turn struct {
			ChatLength int                   `json:"chatLength"`
			Activated  []render.ActivatedOut `json:"activated"`
			Effects    []render.Effect       `json:"effects"`
		}
		doc := struct {
			Turns []turn `json:"turns"`
		}{Turns: []turn{}}
		var lines strings.Builder
		for i, r := range rs {
			tj := turn{lengths[i], r.Activated, r.Effects}
			if tj.Activated == nil {
				tj.Activated = []render.ActivatedOut{}
			}
			if tj.Effects == nil {
				tj.Effects = []render.Effect{}
			}
			doc.Turns = append(doc.Turns, tj)
			enc := json.NewEncoder(&lines)
			enc.SetEscapeHTML(false)
			enc.Encode(tj)
		}
		var want bytes.Buffer
		if err := writeJSON(&want, doc); err != nil {
			t.Fatal(err)
		}
		for format, want := range map[string]string{"json": want.String(), "jsonl": lines.String()} {
			var got bytes.Buffer
			if err := WriteTurns(&got, format, lengths, rs, false); err != nil {
				t.Fatal(err)
			}
			if got.String() != want {
				t.Errorf("%s, %d turns:\n%s\nwant\n%s", format, n, got.String(), want)
			}
		}
	}
}
