package formats

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/lorekit/lore/schema"
)

// TestExportSillyTavernPositions: every row of docs/formats.md's export
// mapping, "the kept position, else the default", for each section.
func TestExportSillyTavernPositions(t *testing.T) {
	depth := func(d int) *int { return &d }
	for _, tc := range []struct {
		section  string
		depth    *int
		apiRole  string
		kept     any // extensions.sillytavern.position, nil = none kept
		position float64
		stDepth  any // nil = not checked
		role     any // nil = not checked
	}{
		{schema.SectionChatHistory, nil, "", nil, 1, nil, nil}, // after the character definitions
		{schema.SectionChatHistory, nil, "", 0.0, 0, nil, nil},
		{schema.SectionChatHistory, nil, "", 1.0, 1, nil, nil},
		{schema.SectionChatHistory, nil, "", 7.0, 7, nil, nil},
		{schema.SectionChatHistory, nil, "", 5.0, 1, nil, nil}, // an examples position means nothing here
		{schema.SectionChatHistory, nil, "", 9.0, 9, nil, nil}, // none of ST's: kept, so ST still sends it nowhere
		{schema.SectionChatHistory, nil, "", -3.0, -3, nil, nil},
		{schema.SectionChatHistory, depth(1), "user", 9.0, 4, 2.0, 1.0}, // given a depth in lore: placed there
		{schema.SectionPostHistory, nil, "", 9.0, 4, 0.0, 0.0},
		{schema.SectionSystemPresets, nil, "", 9.0, 0, nil, nil},
		{schema.SectionChatHistory, depth(2), "user", nil, 4, 3.0, 1.0},
		{schema.SectionChatHistory, depth(0), "assistant", 1.0, 4, 1.0, 2.0},
		{schema.SectionPostHistory, nil, "", nil, 4, 0.0, 0.0},
		{schema.SectionPostHistory, nil, "", 2.0, 2, nil, nil},
		{schema.SectionPostHistory, nil, "", 3.0, 3, nil, nil},
		{schema.SectionExamples, nil, "", nil, 5, nil, nil},
		{schema.SectionExamples, nil, "", 5.0, 5, nil, nil},
		{schema.SectionExamples, nil, "", 6.0, 6, nil, nil},
		{schema.SectionExamples, nil, "", 1.0, 5, nil, nil},
		{schema.SectionSystemPresets, nil, "", nil, 0, nil, nil},
		{schema.SectionSystemPresets, nil, "", 1.0, 1, nil, nil},
		{schema.SectionSystemPresets, nil, "", 6.0, 0, nil, nil},
	} {
		name := fmt.Sprintf("%s depth %v kept %v", tc.section, tc.depth, tc.kept)
		if tc.depth != nil {
			name = fmt.Sprintf("%s depth %d kept %v", tc.section, *tc.depth, tc.kept)
		}
		t.Run(name, func(t *testing.T) {
			e := &schema.Entry{ID: "e", Name: "e", Content: "x", Section: tc.section, Depth: tc.depth,
				APIRole: "system", Role: "lore", Enabled: true}
			if tc.apiRole != "" {
				e.APIRole = tc.apiRole
			}
			if tc.kept != nil {
				e.Extensions = map[string]any{FormatSillyTavern: map[string]any{"position": tc.kept}}
			}
			out := exportSillyTavern(&schema.Lorebook{Entries: []*schema.Entry{e}})
			var file struct {
				Entries map[string]map[string]any `json:"entries"`
			}
			if err := json.Unmarshal(out, &file); err != nil || len(file.Entries) != 1 {
				t.Fatalf("export: %v\n%s", err, out)
			}
			for _, st := range file.Entries {
				if st["position"] != tc.position {
					t.Errorf("position %v, want %v", st["position"], tc.position)
				}
				if tc.stDepth != nil && st["depth"] != tc.stDepth {
					t.Errorf("depth %v, want %v", st["depth"], tc.stDepth)
				}
				if tc.role != nil && st["role"] != tc.role {
					t.Errorf("role %v, want %v", st["role"], tc.role)
				}
			}
		})
	}
}

// TestSillyTavernPositionsRoundTrip: an ST file's positions 0 to 7 come back
// as they were after import and export (5 and 6 both become lore's examples).
func TestSillyTavernPositionsRoundTrip(t *testing.T) {
	src := `{"entries": {`
	for p := 0; p <= 7; p++ {
		if p > 0 {
			src += ","
		}
		src += fmt.Sprintf(`"%d": {"uid": %d, "key": ["k%d"], "content": "text %d", "position": %d, "depth": 2}`, p, p, p, p, p)
	}
	src += `}}`
	lb, _, err := Convert("world.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := exportSillyTavern(lb)
	var file struct {
		Entries map[string]map[string]any `json:"entries"`
	}
	if err := json.Unmarshal(out, &file); err != nil {
		t.Fatal(err)
	}
	for p := 0; p <= 7; p++ {
		st, ok := file.Entries[fmt.Sprint(p)]
		if !ok {
			t.Errorf("uid %d missing from the export", p)
			continue
		}
		if st["position"] != float64(p) {
			t.Errorf("uid %d: position %v after the round trip, want %d", p, st["position"], p)
		}
	}
}
