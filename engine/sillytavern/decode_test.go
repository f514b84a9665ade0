package sillytavern

import (
	"testing"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// settings.sillytavern is decoded once, when the inputs are loaded: every
// later reader takes the decoded value, whatever the map holds by then.
func TestSettingsDecodedOnce(t *testing.T) {
	in := &render.Input{EngineSettings: map[string]any{"scanDepth": 7.0, "recursive": false}}
	render.DecodeEngineSettings(New(), in)
	s, ok := in.EngineConfig.(*Settings)
	if !ok || s.ScanDepth != 7 || s.Recursive {
		t.Fatalf("decoded %#v", in.EngineConfig)
	}
	in.EngineSettings = map[string]any{"scanDepth": "not read again"}
	if got, err := settingsOf(in); err != nil || got.ScanDepth != 7 {
		t.Errorf("settingsOf read the map again: %+v %v", got, err)
	}
	if New().Describe(&render.Input{Book: &schema.Lorebook{}, EngineSettings: in.EngineSettings, EngineConfig: in.EngineConfig}).Recursive {
		t.Error("Recursive did not take the decoded settings")
	}
	// Settings the engine refuses are left for the render to report.
	bad := &render.Input{EngineSettings: map[string]any{"scanDepth": -1.0}}
	render.DecodeEngineSettings(New(), bad)
	if bad.EngineConfig != nil {
		t.Errorf("refused settings decoded: %#v", bad.EngineConfig)
	}
	if _, err := settingsOf(bad); err == nil {
		t.Error("the render would not say why")
	}
}
