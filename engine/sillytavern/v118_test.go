package sillytavern

import (
	"strings"
	"testing"
)

// TestDisableLooseTrue: SillyTavern skips an entry when `entry.disable ==
// true` in JavaScript: 1, "1" and [1] are true that way; 2, "true", "" and
// "false" are not. An outlet entry's disable is read the same way.
func TestDisableLooseTrue(t *testing.T) {
	for _, tc := range []struct {
		disable  string
		disabled bool
	}{
		{`true`, true}, {`1`, true}, {`"1"`, true}, {`" 1 "`, true}, {`[1]`, true}, {`"0x1"`, true},
		{`false`, false}, {`0`, false}, {`2`, false}, {`"true"`, false}, {`""`, false}, {`"false"`, false},
		{`[true]`, false}, {`null`, false}, {`{}`, false},
	} {
		for _, pos := range []string{"0", "7"} {
			book := `{"entries": {"0": {"uid": 0, "key": ["x"], "content": "X", "comment": "e", "position": ` + pos +
				`, "outletName": "o", "disable": ` + tc.disable + `}}}`
			r := mustRender(t, stInput(t, book, nil, "x"))
			if got := r.Explanations()["e"] != nil && r.Explanations()["e"].Active; got == tc.disabled {
				t.Errorf("disable %s at position %s: activated %v, want %v", tc.disable, pos, got, !tc.disabled)
			}
		}
	}
}

// TestCharacterNoteScanned: the card's Character's Note is scanned for
// keys when the Author's Note allows World Info to scan it (SillyTavern
// registers the note's extension prompt with that switch), even in a
// generation that does not send the Author's Note; off by default.
func TestCharacterNoteScanned(t *testing.T) {
	card := `{"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Aria", "description": "", "personality": "",
		"scenario": "", "first_mes": "", "mes_example": "",
		"extensions": {"depth_prompt": {"prompt": "{{char}} fears the lighthouse.", "depth": 4, "role": "system"}},
		"character_book": {"entries": [{"id": 0, "keys": ["lighthouse"], "content": "The lighthouse is haunted.", "comment": "lh",
			"enabled": true, "insertion_order": 100, "extensions": {"position": 0}}]}}}`
	for _, tc := range []struct {
		name     string
		settings map[string]any
		want     string
	}{
		{"off", nil, ""},
		{"on", map[string]any{"authorsNote": map[string]any{"allowWIScan": true}}, "lh@before-char"},
		{"on, the note not sent", map[string]any{"authorsNote": map[string]any{"allowWIScan": true, "active": false}}, "lh@before-char"},
		{"on, 1.12.6 too", map[string]any{"version": "1.12.6", "authorsNote": map[string]any{"allowWIScan": true}}, "lh@before-char"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRender(t, stInput(t, card, tc.settings, "hello"))
			if got := inPrompt(r); got != tc.want {
				t.Errorf("activated %q, want %q", got, tc.want)
			}
			if tc.want != "" {
				if why := strings.Join(r.Explanations()["lh"].Texts(), "; "); !strings.Contains(why, "character-note") {
					t.Errorf("--explain lh does not say where the key was: %s", why)
				}
			}
		})
	}
}

// TestMacros118: the card macros 1.18.0 added, in an entry's content; 1.12.6
// leaves them as written. {{mesExamples}} is the examples as Chat
// Completion sends them in 1.18.0, as written in 1.12.6.
func TestMacros118(t *testing.T) {
	card := `{"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Aria", "description": "", "personality": "",
		"scenario": "", "first_mes": "", "mes_example": "{{user}}: hi\n<START>\n{{char}}: yo ", "creator_notes": " By Nib. ",
		"post_history_instructions": "Stay terse.",
		"extensions": {"depth_prompt": {"prompt": " {{char}} hums. ", "depth": 4, "role": "system"}},
		"character_book": {"entries": [{"id": 0, "keys": ["x"], "content": "{{notChar}}|{{groupNotMuted}}|{{charDepthPrompt}}|{{creatorNotes}}|{{charInstruction}}|{{mesExamplesRaw}}|{{mesExamples}}",
			"comment": "m", "enabled": true, "constant": true, "insertion_order": 100, "extensions": {"position": 0}}]}}}`
	for _, tc := range []struct{ version, want string }{
		{"1.18.0", "Tom|Aria|Aria hums.|By Nib.|Stay terse.|Tom: hi\n<START>\nAria: yo |<START>\nTom: hi\n<START>\nAria: yo\n"},
		{"1.12.6", "{{notChar}}|{{groupNotMuted}}|{{charDepthPrompt}}|{{creatorNotes}}|{{charInstruction}}|{{mesExamplesRaw}}|Tom: hi\n<START>\nAria: yo "},
	} {
		r := mustRender(t, stInput(t, card, map[string]any{"version": tc.version, "userName": "Tom"}, "hello"))
		got := ""
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "|") {
				got = m.Content
			}
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.version, got, tc.want)
		}
	}
}

// TestCardEnabledLoose: a character card's entry is disabled as SillyTavern
// imports it, disable = !enabled: 0, "" and null disable it, 1 and "no" do
// not.
func TestCardEnabledLoose(t *testing.T) {
	for _, tc := range []struct {
		enabled  string
		disabled bool
	}{{`true`, false}, {`false`, true}, {`1`, false}, {`0`, true}, {`""`, true}, {`"no"`, false}, {`null`, true}} {
		card := `{"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Aria", "description": "", "personality": "",
			"scenario": "", "first_mes": "", "mes_example": "", "character_book": {"entries": [{"id": 0, "keys": ["x"],
			"content": "X", "comment": "e", "enabled": ` + tc.enabled + `, "insertion_order": 100, "extensions": {"position": 0}}]}}}`
		r := mustRender(t, stInput(t, card, nil, "x"))
		if got := r.Explanations()["e"] != nil && r.Explanations()["e"].Active; got == tc.disabled {
			t.Errorf("enabled %s: activated %v, want %v", tc.enabled, got, !tc.disabled)
		}
	}
}
