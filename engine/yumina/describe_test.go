package yumina

import (
	"testing"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// TestDescribe pins what lint is told about each kind of entry, row by row of
// docs/engines.md.
func TestDescribe(t *testing.T) {
	d, null := 2, (*int)(nil)
	tests := []struct {
		name       string
		e          *schema.Entry
		activation string
		placed     bool // sent somewhere when in
	}{
		{"Y11 alwaysSend unset, no keywords", &schema.Entry{ID: "a", Section: schema.SectionSystemPresets, Enabled: true, AlwaysSend: true}, "never", false},
		{"alwaysSend written", &schema.Entry{ID: "a", Section: schema.SectionSystemPresets, Enabled: true, AlwaysSend: true,
			Fields: map[string]schema.Pos{"alwaysSend": {}}}, "always", true},
		{"Y17 depth null", &schema.Entry{ID: "a", Section: schema.SectionChatHistory, Enabled: true, Keywords: []schema.Keyword{{Text: "k"}},
			Depth: null, Fields: map[string]schema.Pos{"depth": {}}}, "keywords", false},
		{"Y18 depth unset", &schema.Entry{ID: "a", Section: schema.SectionChatHistory, Enabled: true, Keywords: []schema.Keyword{{Text: "k"}}}, "keywords", true},
		{"Y9 conditions alone", &schema.Entry{ID: "a", Section: schema.SectionChatHistory, Enabled: true, Depth: &d,
			Conditions: []schema.Condition{{VariableID: "hp", Operator: "lt", Value: 20.0}}}, "conditions", true},
		{"Y10 disabled with conditions", &schema.Entry{ID: "a", Section: schema.SectionChatHistory, Depth: &d,
			Conditions: []schema.Condition{{VariableID: "hp", Operator: "lt", Value: 20.0}}}, "conditions", false},
		{"Y22 matched example", &schema.Entry{ID: "a", Section: schema.SectionExamples, Role: "example", Enabled: true, Keywords: []schema.Keyword{{Text: "k"}}}, "keywords", false},
		{"Y24 greeting", &schema.Entry{ID: "a", Section: schema.SectionPostHistory, Role: "greeting", Enabled: true}, "always", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := New().Describe(&render.Input{Book: &schema.Lorebook{Entries: []*schema.Entry{tt.e}}}).Fates[0]
			if f.Activation != tt.activation || f.Sent() != tt.placed || (f.Placement.Code != "") != tt.placed {
				t.Errorf("got %+v; want activation %q, placed %v", f, tt.activation, tt.placed)
			}
		})
	}
}
