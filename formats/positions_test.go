package formats

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/schema"
)

// stPositionCases are one SillyTavern entry at every position 0–7 (4 at a
// depth and at depth 0, with every role and a null one), enabled and not.
func stPositionCases() []map[string]any {
	var out []map[string]any
	for p := 0; p <= 7; p++ {
		for _, disable := range []bool{false, true} {
			base := func() map[string]any {
				return map[string]any{"uid": 5.0, "key": []any{"lighthouse"}, "keysecondary": []any{}, "comment": "Lighthouse",
					"content": "The lamp is lit.", "constant": false, "selective": true, "order": 120.0,
					"position": float64(p), "disable": disable}
			}
			switch p {
			case stAtDepth:
				for _, depth := range []float64{0, 3} {
					for _, role := range []any{0.0, 1.0, 2.0, nil} {
						e := base()
						e["depth"], e["role"] = depth, role
						out = append(out, e)
					}
				}
			case stOutlet:
				e := base()
				e["outletName"] = "sidebar"
				out = append(out, e)
			default:
				out = append(out, base())
			}
		}
	}
	return out
}

// TestSillyTavernPositionsThroughCards: every ST position, enabled or
// not, goes ST → lore → card-v3 → lore → ST and comes back with every field
// it had; both lore stages say the same (section, depth, role, enabled…).
func TestSillyTavernPositionsThroughCards(t *testing.T) {
	for _, src := range stPositionCases() {
		name := fmt.Sprintf("position%v_depth%v_role%v_disable%v", src["position"], src["depth"], src["role"], src["disable"])
		t.Run(name, func(t *testing.T) {
			raw, _ := json.Marshal(map[string]any{"entries": map[string]any{"5": src}})
			lb1 := mustConvert(t, "st.json", raw)
			lore1 := assertReloads(t, lb1, canon.YAML)
			lb2 := mustConvert(t, "card.json", exportCard(lore1, FormatCardV3))
			lore2 := assertReloads(t, lb2, canon.YAML)
			if a, b := loreView(lore1.Entries[0]), loreView(lore2.Entries[0]); a != b {
				t.Errorf("the card hop changed the lore entry:\n%s\n%s", a, b)
			}
			var back struct{ Entries map[string]map[string]any }
			if err := json.Unmarshal(exportSillyTavern(lore2), &back); err != nil {
				t.Fatal(err)
			}
			got := back.Entries["5"]
			for k, v := range src {
				if !reflect.DeepEqual(got[k], v) {
					t.Errorf("%s: %#v, want %#v", k, got[k], v)
				}
			}
		})
	}
}

// TestCardPositionsThroughSillyTavern: the same entries in a V3 card's
// book (ST's numbers in extensions, as ST's own card export writes them) go
// card → lore → SillyTavern → lore → card-v3 and come back unchanged.
func TestCardPositionsThroughSillyTavern(t *testing.T) {
	for _, src := range stPositionCases() {
		name := fmt.Sprintf("position%v_depth%v_role%v_disable%v", src["position"], src["depth"], src["role"], src["disable"])
		t.Run(name, func(t *testing.T) {
			ext := map[string]any{"position": src["position"], "depth": src["depth"], "role": src["role"]}
			if src["depth"] == nil {
				ext["depth"] = 4.0
				ext["role"] = 0.0
			}
			if n, ok := src["outletName"]; ok {
				ext["outlet_name"] = n
			}
			pos := "after_char"
			if src["position"] == float64(stBeforeChar) {
				pos = "before_char" // as ST's card export writes position 0
			}
			entry := map[string]any{"id": 5.0, "keys": src["key"], "secondary_keys": []any{}, "comment": "Lighthouse",
				"content": "The lamp is lit.", "constant": false, "selective": true, "insertion_order": 120.0,
				"enabled": !src["disable"].(bool), "position": pos, "use_regex": false, "extensions": ext}
			card := map[string]any{"spec": "chara_card_v3", "spec_version": "3.0", "data": map[string]any{"name": "Keeper",
				"character_book": map[string]any{"name": "Coast", "entries": []any{entry}, "extensions": map[string]any{}}}}
			raw, _ := json.Marshal(card)
			lb1 := mustConvert(t, "card.json", raw)
			lore1 := assertReloads(t, lb1, canon.YAML)
			lb2 := mustConvert(t, "st.json", exportSillyTavern(lore1))
			lore2 := assertReloads(t, lb2, canon.YAML)
			if a, b := loreView(lore1.Entries[0]), loreView(lore2.Entries[0]); a != b {
				t.Errorf("the SillyTavern hop changed the lore entry:\n%s\n%s", a, b)
			}
			var back struct {
				Data struct {
					Book struct{ Entries []map[string]any } `json:"character_book"`
				}
			}
			if err := json.Unmarshal(exportCard(lore2, FormatCardV3), &back); err != nil {
				t.Fatal(err)
			}
			got := back.Data.Book.Entries[0]
			for k, v := range entry {
				if k == "extensions" {
					gx, _ := got[k].(map[string]any)
					for xk, xv := range ext {
						if !reflect.DeepEqual(gx[xk], xv) {
							t.Errorf("extensions.%s: %#v, want %#v", xk, gx[xk], xv)
						}
					}
					continue
				}
				if !reflect.DeepEqual(got[k], v) {
					t.Errorf("%s: %#v, want %#v", k, got[k], v)
				}
			}
		})
	}
}

func mustConvert(t *testing.T, name string, data []byte) *schema.Lorebook {
	t.Helper()
	lb, _, err := Convert(name, data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return lb
}

// loreView is what lore's engine reads of an entry.
func loreView(e *schema.Entry) string {
	return fmt.Sprint(e.Section, " depth=", derefInt(e.Depth), " apiRole=", e.APIRole, " role=", e.Role,
		" enabled=", e.Enabled, " always=", e.AlwaysSend, " position=", e.Position, " keys=", keywordTexts(e.Keywords))
}
