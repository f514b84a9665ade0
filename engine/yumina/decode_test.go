package yumina

import (
	"testing"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// settings.yumina is decoded once, when the inputs are loaded.
func TestSettingsDecodedOnce(t *testing.T) {
	in := &render.Input{Settings: schema.Settings{ContextTokens: 8192},
		EngineSettings: map[string]any{"lorebookRecursionDepth": 2.0, "extra": 1.0}}
	render.DecodeEngineSettings(New(), in)
	if in.EngineConfig == nil {
		t.Fatal("not decoded")
	}
	in.EngineSettings = map[string]any{"lorebookRecursionDepth": -4.0}
	s, warnings, err := settingsOf(in)
	if err != nil || s.recursion != 2 || len(warnings) != 1 || !New().Describe(withBook(in)).Recursive {
		t.Errorf("settingsOf read the map again: %+v %v %v", s, warnings, err)
	}
	bad := &render.Input{EngineSettings: map[string]any{"lorebookBudgetPercent": 300.0}}
	render.DecodeEngineSettings(New(), bad)
	if bad.EngineConfig != nil {
		t.Errorf("refused settings decoded: %#v", bad.EngineConfig)
	}
}

// withBook is in with an empty lorebook, for Describe.
func withBook(in *render.Input) *render.Input {
	cp := *in
	cp.Book = &schema.Lorebook{}
	return &cp
}
