package sillytavern

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
)

// statusScript is the script of the output-format guide in ../shared/seeds
// (004): prompt-only, AI output, minimum depth 8, the <status_block> blocks
// replaced by nothing.
const statusScript = `{"scriptName": "old status blocks", "findRegex": "/<status_block>[\\s\\S]*?<\\/status_block>/g",
	"replaceString": "", "trimStrings": [], "placement": [2], "disabled": false, "markdownOnly": false,
	"promptOnly": true, "runOnEdit": true, "substituteRegex": 0, "minDepth": 8, "maxDepth": null}`

func scripts(t *testing.T, js ...string) []any {
	t.Helper()
	var out []any
	if err := json.Unmarshal([]byte("["+strings.Join(js, ",")+"]"), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStatusBlockScript: the blocks stay in the 8 newest messages (depths
// 0–7) and leave the older ones, in the prompt sent.
func TestStatusBlockScript(t *testing.T) {
	var chat []string
	for i := range 12 {
		chat = append(chat, fmt.Sprintf("reply %d\n<status_block>mood %d</status_block>", i, i))
	}
	r := mustRender(t, stInput(t, `{"entries": {}}`, map[string]any{"regexScripts": scripts(t, statusScript)}, chat...))
	n := 0
	for _, m := range r.Messages {
		src := strings.Join(m.Sources, "")
		var i int
		if _, err := fmt.Sscanf(src, "message:%d", &i); err != nil {
			continue
		}
		n++
		depth := len(chat) - 1 - i
		has := strings.Contains(m.Content, "<status_block>")
		if m.Role == "assistant" && has != (depth < 8) {
			t.Errorf("message %d (depth %d, %s): %q", i, depth, m.Role, m.Content)
		}
		if m.Role == "user" && !has {
			t.Errorf("a user message lost its block: %q", m.Content)
		}
	}
	if n != len(chat) {
		t.Errorf("%d messages sent, want %d", n, len(chat))
	}
}

// TestUserInputScript: a user-input script rewrites the chat World Info
// scans; a markdown-only one changes nothing.
func TestUserInputScript(t *testing.T) {
	book := `{"entries": {"0": {"uid": 0, "key": ["dragon"], "comment": "dragon", "content": "Dragons hoard gold."}}}`
	rename := func(flags string) string {
		return `{"scriptName": "wyrm", "findRegex": "/wyrm/gi", "replaceString": "dragon", "placement": [1], ` + flags + `}`
	}
	cases := []struct {
		name, script string
		want         string
	}{
		{"none", ``, ""},
		{"prompt-only", rename(`"promptOnly": true`), "dragon@before-char"},
		{"markdown-only", rename(`"markdownOnly": true`), ""},
		{"neither (ran when written)", rename(`"promptOnly": false`), ""},
		{"disabled", rename(`"promptOnly": true, "disabled": true`), ""},
		{"AI output only", strings.Replace(rename(`"promptOnly": true`), "[1]", "[2]", 1), ""},
	}
	for _, c := range cases {
		var ss []any
		if c.script != "" {
			ss = scripts(t, c.script)
		}
		r := mustRender(t, stInput(t, book, map[string]any{"regexScripts": ss}, "I saw a WYRM"))
		if got := inPrompt(r); got != c.want {
			t.Errorf("%s: in the prompt %q, want %q", c.name, got, c.want)
		}
		sent := r.Messages[len(r.Messages)-1].Content
		if wantSent := "I saw a WYRM"; c.want != "" {
			if sent != "I saw a dragon" {
				t.Errorf("%s: sent %q", c.name, sent)
			}
		} else if sent != wantSent {
			t.Errorf("%s: sent %q, want it as written", c.name, sent)
		}
	}
}

// TestWorldInfoScript: a world-info script rewrites an entry's text as it
// is placed, with $1 and {{match}}, its trim strings and macros; the card's
// own scripts run after the global ones unless cardRegexScripts is off.
func TestWorldInfoScript(t *testing.T) {
	book := `{"entries": {
		"0": {"uid": 0, "key": ["inn"], "comment": "inn", "content": "The inn [Old Maren] is warm.", "position": 0},
		"1": {"uid": 1, "key": ["inn"], "comment": "deep", "content": "[Deep] note", "position": 4, "depth": 6}}}`
	wi := `{"scriptName": "brackets", "findRegex": "/\\[([^\\]]+)\\]/g", "replaceString": "<$1 for {{user}}>", "trimStrings": ["Old "],
		"placement": [5], "promptOnly": true, "maxDepth": 5}`
	r := mustRender(t, stInput(t, book, map[string]any{"regexScripts": scripts(t, wi)}, "the inn"))
	text := ""
	for _, m := range r.Messages {
		text += m.Content + "\n"
	}
	if !strings.Contains(text, "The inn <Maren for User> is warm.") {
		t.Errorf("the entry not rewritten:\n%s", text)
	}
	if !strings.Contains(text, "[Deep] note") {
		t.Errorf("the depth-6 entry is past maxDepth 5 and should stay:\n%s", text)
	}
	// An entry a script empties is placed nowhere.
	del := `{"scriptName": "del", "findRegex": "/^.*$/s", "replaceString": "", "placement": [5], "promptOnly": true, "trimStrings": []}`
	r = mustRender(t, stInput(t, book, map[string]any{"regexScripts": scripts(t, del)}, "the inn"))
	if got := inPrompt(r); got != "" {
		t.Errorf("emptied entries are in the prompt: %s", got)
	}
	whole := `{"scriptName": "all", "findRegex": "/warm/", "replaceString": "[{{match}}]", "placement": [5], "promptOnly": true}`
	r = mustRender(t, stInput(t, book, map[string]any{"regexScripts": scripts(t, whole)}, "the inn"))
	if s := r.Messages[1].Content; !strings.Contains(s, "is [warm].") {
		t.Errorf("{{match}}: %q", s)
	}
}

// TestCardScripts: a card's extensions.regex_scripts run as when the user
// allowed them for the card; cardRegexScripts: false turns them off.
func TestCardScripts(t *testing.T) {
	card := `{"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Sera", "description": "",
		"first_mes": "Welcome.", "mes_example": "", "personality": "", "scenario": "",
		"extensions": {"regex_scripts": [{"scriptName": "hush", "findRegex": "/secret/g", "replaceString": "s*****",
			"placement": [1, 2], "promptOnly": true}]},
		"character_book": {"entries": [{"keys": ["secret"], "content": "The secret is out.", "enabled": true, "insertion_order": 1, "id": 1}]}}}`
	for _, on := range []bool{true, false} {
		in := stInput(t, `{"entries": {}}`, map[string]any{"cardRegexScripts": on}, "tell me the secret")
		lb, _, err := formatsConvert("sera.json", card)
		if err != nil {
			t.Fatal(err)
		}
		in.Book = lb
		r := mustRender(t, in)
		last := r.Messages[len(r.Messages)-1].Content
		if want := map[bool]string{true: "tell me the s*****", false: "tell me the secret"}[on]; last != want {
			t.Errorf("cardRegexScripts %v: sent %q, want %q", on, last, want)
		}
		if got := strings.Contains(inPrompt(r), "@before-char"); got != !on {
			t.Errorf("cardRegexScripts %v: the entry activated %v (%s)", on, got, inPrompt(r))
		}
	}
}

func formatsConvert(name, data string) (*schema.Lorebook, any, error) {
	return formats.Convert(name, []byte(data))
}
