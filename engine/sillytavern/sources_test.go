package sillytavern

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/lorekit/lore/schema"
)

// TestMatchSourcesOracle: 1.18.0's extra matching sources, held to the
// oracle. testdata/sources/oracle-input.json is a World Info book whose
// entries each match only through one card field (their match… switch on,
// and a twin with it off), the card's fields given as the oracle's
// characterCard, the Author's Note and the Character's Note scanned;
// oracle-output.json is what SillyTavern 1.18.0 (51ad27fb) activated. Here
// the same entries are a character card's book, its fields the card's and
// the persona the chat's, rendered by lore: the same entries activate, in
// the same order. One entry's regular expression spans the chat's end and
// the description, which only the order 1.18.0 joins the texts in allows.
func TestMatchSourcesOracle(t *testing.T) {
	var in struct {
		Book struct {
			Entries map[string]map[string]any `json:"entries"`
		} `json:"book"`
		Messages []struct {
			Mes string `json:"mes"`
		} `json:"messages"`
		Settings struct {
			AuthorsNote   map[string]any    `json:"authorsNote"`
			CharacterCard map[string]string `json:"characterCard"`
		} `json:"settings"`
	}
	var out struct {
		Activated []struct {
			UID float64 `json:"uid"`
		} `json:"activated"`
	}
	for f, v := range map[string]any{"testdata/sources/oracle-input.json": &in, "testdata/sources/oracle-output.json": &out} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	var book []map[string]any
	for i := 0; i < len(in.Book.Entries); i++ {
		e := in.Book.Entries[strings.TrimSpace(jsonNumber(i))]
		ext := map[string]any{"position": 0.0}
		for k, v := range e {
			if strings.HasPrefix(k, "match") {
				ext[camelSnake(k)] = v
			}
		}
		book = append(book, map[string]any{"id": e["uid"], "keys": e["key"], "content": e["content"], "comment": e["comment"],
			"enabled": true, "insertion_order": 100, "extensions": ext})
	}
	cc := in.Settings.CharacterCard
	card := map[string]any{"spec": "chara_card_v2", "spec_version": "2.0", "data": map[string]any{
		"name": "Aria", "description": cc["description"], "personality": cc["personality"], "scenario": cc["scenario"],
		"creator_notes": cc["creatorNotes"], "first_mes": "", "mes_example": "",
		"extensions":     map[string]any{"depth_prompt": map[string]any{"prompt": cc["depthPrompt"], "depth": 4, "role": "system"}},
		"character_book": map[string]any{"entries": book}}}
	data, err := json.Marshal(card)
	if err != nil {
		t.Fatal(err)
	}
	input := stInput(t, string(data), map[string]any{"userName": "Tom", "authorsNote": in.Settings.AuthorsNote}, in.Messages[0].Mes)
	input.Transcript.Persona = &schema.Persona{Appearance: cc["persona"]}
	var got, want []string
	err = New().runTurns(input, []int{1}, func(_ int, tu turn) error {
		for _, a := range tu.sc.activated {
			got = append(got, a.e.uid)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range out.Activated {
		want = append(want, jsonNumber(int(a.UID)))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("activated %v, SillyTavern 1.18.0 activated %v", got, want)
	}
}

func jsonNumber(i int) string { b, _ := json.Marshal(i); return string(b) }

func camelSnake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
