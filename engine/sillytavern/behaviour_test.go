package sillytavern

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// stInput is a SillyTavern book (JSON) read directly, with a chat of
// alternating user and character messages and chars4.
func stInput(t *testing.T, book string, settings map[string]any, chat ...string) *render.Input {
	t.Helper()
	lb, _, err := formats.Convert("book.json", []byte(book))
	if err != nil {
		t.Fatal(err)
	}
	tr := &schema.Transcript{}
	for i, c := range chat {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		tr.Messages = append(tr.Messages, schema.Message{Role: role, Content: c})
	}
	counter, _ := tokenize.Get(tokenize.Chars4)
	return &render.Input{Book: lb, Transcript: tr, Settings: schema.DefaultSettings(), Counter: counter, EngineSettings: settings}
}

func inPrompt(r *render.Result) string {
	var ids []string
	for _, a := range r.Activated {
		ids = append(ids, a.ID+"@"+a.Position)
	}
	return strings.Join(ids, " ")
}

func mustRender(t *testing.T, in *render.Input) *render.Result {
	t.Helper()
	r, err := New().Render(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The fields newer than 1.12.6, by SillyTavern's documentation.
func TestNewerFields(t *testing.T) {
	t.Run("triggers", func(t *testing.T) {
		book := `{"entries": {
			"0": {"uid": 0, "key": ["x"], "comment": "swipes", "content": "S", "triggers": ["swipe"]},
			"1": {"uid": 1, "key": ["x"], "comment": "any", "content": "A", "triggers": []}}}`
		r := mustRender(t, stInput(t, book, nil, "x"))
		if got := inPrompt(r); got != "any@before-char" {
			t.Errorf("a normal generation: %s", got)
		}
		if why := strings.Join(r.Explanations()["swipes"].Texts(), "; "); !strings.Contains(why, "triggers swipe do not include this generation's type (normal)") {
			t.Errorf("--explain swipes: %s", why)
		}
		r = mustRender(t, stInput(t, book, map[string]any{"generationType": "swipe"}, "x", "y"))
		if got := inPrompt(r); got != "any@before-char swipes@before-char" {
			t.Errorf("a swipe: %s", got)
		}
	})
	t.Run("ignoreBudget", func(t *testing.T) {
		// A 10-token budget: big (order 100) overflows it; small is dropped
		// with it, but free ignores the budget and still goes in.
		book := `{"entries": {
			"0": {"uid": 0, "key": ["x"], "comment": "big", "content": "` + strings.Repeat("b", 60) + `", "order": 100},
			"1": {"uid": 1, "key": ["x"], "comment": "small", "content": "s", "order": 90},
			"2": {"uid": 2, "key": ["x"], "comment": "free", "content": "free", "order": 80, "ignoreBudget": true}}}`
		r := mustRender(t, stInput(t, book, map[string]any{"maxContext": 40.0, "recursive": false}, "x"))
		if got := inPrompt(r); got != "free@before-char" {
			t.Errorf("in the prompt: %s", got)
		}
		if why := strings.Join(r.Explanations()["small"].Texts(), "; "); !strings.Contains(why, "the budget (10 tokens) was already full at big") {
			t.Errorf("--explain small: %s", why)
		}
	})
	t.Run("match sources", func(t *testing.T) {
		card := `{"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Aria", "description": "Aria owns a lute.",
			"personality": "", "scenario": "", "first_mes": "", "mes_example": "",
			"character_book": {"entries": [
				{"id": 0, "keys": ["lute"], "content": "Lutes have six courses.", "comment": "lute", "enabled": true, "insertion_order": 100,
				 "extensions": {"match_character_description": true}},
				{"id": 1, "keys": ["lute"], "content": "Not from the card.", "comment": "plain", "enabled": true, "insertion_order": 90}]}}}`
		r := mustRender(t, stInput(t, card, nil, "hello"))
		// The card's description is in the prompt too, listed by its field.
		if got := inPrompt(r); got != "description@description lute@after-char" && got != "lute@before-char description@description" {
			t.Errorf("in the prompt: %s", got)
		}
	})
	t.Run("outlets", func(t *testing.T) {
		book := `{"entries": {
			"0": {"uid": 0, "key": ["x"], "comment": "scene", "content": "Outlet text", "position": 7, "outletName": "scene"},
			"1": {"uid": 1, "key": ["x"], "comment": "normal", "content": "Normal"}}}`
		r := mustRender(t, stInput(t, book, nil, "x"))
		if got := inPrompt(r); got != "normal@before-char scene@outlet" {
			t.Errorf("in the prompt: %s", got)
		}
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "Outlet text") {
				t.Errorf("an outlet's content was placed: %q", m.Content)
			}
		}
	})
}

// TestExplainGates: --explain names the check that kept an entry out.
func TestExplainGates(t *testing.T) {
	book := `{"entries": {
		"0": {"uid": 0, "key": ["x"], "comment": "off", "content": "c", "disable": true},
		"1": {"uid": 1, "key": ["x"], "comment": "bob", "content": "c", "characterFilter": {"isExclude": false, "names": ["Bob"], "tags": []}},
		"2": {"uid": 2, "key": ["x"], "comment": "tagged", "content": "c", "characterFilter": {"isExclude": true, "names": [], "tags": ["grim"]}},
		"3": {"uid": 3, "key": ["x"], "comment": "late", "content": "c", "delay": 5},
		"4": {"uid": 4, "key": ["x"], "comment": "deferred", "content": "c", "delayUntilRecursion": 2},
		"5": {"uid": 5, "key": ["x"], "comment": "blocked", "content": "@@dont_activate\nc"},
		"6": {"uid": 6, "key": [], "comment": "keyless", "content": "c"},
		"7": {"uid": 7, "key": ["kin"], "comment": "kin", "content": "c"},
		"8": {"uid": 8, "key": ["x"], "comment": "and-all", "content": "c", "keysecondary": ["x", "moon"], "selectiveLogic": 3},
		"9": {"uid": 9, "key": ["x"], "comment": "never", "content": "c", "probability": 0},
		"10": {"uid": 10, "key": ["x"], "comment": "g-a", "content": "c", "group": "g", "groupOverride": true, "order": 200},
		"11": {"uid": 11, "key": ["x"], "comment": "g-b", "content": "c", "group": "g", "order": 150},
		"12": {"uid": 12, "key": ["zzz"], "comment": "far", "content": "c"},
		"13": {"uid": 13, "key": ["x"], "comment": "huge", "content": "` + strings.Repeat("h", 8000) + `", "order": 1}
	}}`
	in := stInput(t, book, map[string]any{"characterName": "Aria", "characterTags": []any{"grim"}}, "zzz", "y", "x king")
	r := mustRender(t, in)
	for id, want := range map[string]string{
		"off":      "disabled (disable: true)",
		"bob":      `character filter: only for names Bob; this is the character "Aria"`,
		"tagged":   "character filter: not for tags grim; this is a character tagged grim",
		"late":     "delay 5: the chat has 3 messages, fewer than 5",
		"deferred": "delayUntilRecursion 2: it can only activate in a recursion pass",
		"blocked":  "@@dont_activate",
		"keyless":  "no primary keys, and it is not constant",
		"kin":      `"kin" occurs only inside other words, and whole words are on (matchWholeWords)`,
		"and-all":  `primary key "x" matched, but secondary logic AND_ALL fails in the scanned text: "x" matched ("moon" did not)`,
		"never":    "probability 0%: rolled",
		"g-b":      `inclusion group "g" went to g-a by prioritized`,
		"far":      "no primary key matched in the 2 newest messages (scan depth 2)",
		"huge":     "left out by the budget: 2001 tokens with it, the budget is 1792",
	} {
		x := r.Explanations()[id]
		if x == nil {
			t.Errorf("no explanation for %s", id)
			continue
		}
		if x.Active {
			t.Errorf("%s: activated, want it out", id)
		}
		if why := strings.Join(x.Texts(), "; "); !strings.Contains(why, want) {
			t.Errorf("--explain %s:\n  %s\nwant it to say %q", id, why, want)
		}
	}
	if x := r.Explanations()["g-a"]; !x.Active || !strings.Contains(strings.Join(x.Texts(), "; "), `activated: key "x" matched in message:2`) {
		t.Errorf("--explain g-a: %v", x.Texts())
	}
}

// TestCooldownExplained: across turns, --explain says when a cooldown ends.
func TestCooldownExplained(t *testing.T) {
	book := `{"entries": {"0": {"uid": 0, "key": ["amulet"], "comment": "amulet", "content": "c", "cooldown": 3}}}`
	in := stInput(t, book, nil, "amulet", "amulet", "amulet")
	rs, err := New().RenderTurns(in, []int{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	if inPrompt(rs[0]) != "amulet@before-char" || inPrompt(rs[1]) != "" {
		t.Fatalf("turns: %q, %q", inPrompt(rs[0]), inPrompt(rs[1]))
	}
	if why := strings.Join(rs[1].Explanations()["amulet"].Texts(), "; "); !strings.Contains(why, "on cooldown until the chat has 4 messages (it has 3)") {
		t.Errorf("--explain amulet at length 3: %s", why)
	}
	if len(rs[0].Effects) != 1 || rs[0].Effects[0] != (render.Effect{ID: "amulet", Kind: "cooldown", Start: 1, End: 4}) {
		t.Errorf("effects after the first turn: %+v", rs[0].Effects)
	}
}

// TestCardFieldsInPrompt: the entries made from a card's own fields are in
// `activated` where SillyTavern's prompt has them, by field, in prompt
// order; blank fields and the greeting are not.
func TestCardFieldsInPrompt(t *testing.T) {
	card := `{"name": "Aria", "description": "Aria owns a lute.", "personality": "calm", "scenario": "",
		"first_mes": "Hello.", "mes_example": "<START>\n{{char}}: Hi.", "system_prompt": "Be Aria.",
		"post_history_instructions": "Stay in character."}`
	r := mustRender(t, stInput(t, card, nil, "hello"))
	if got, want := inPrompt(r), "system-prompt@system_prompt description@description personality@personality example-messages@mes_example first-message@chat post-history-instructions@post_history_instructions"; got != want {
		t.Errorf("in the prompt:\n got %s\nwant %s", got, want)
	}
	for _, a := range r.Activated {
		if a.Kind != "card" && a.Kind != "greeting" || a.Trigger.In != "always" {
			t.Errorf("%s: kind %q, trigger %q; want a card field sent always", a.ID, a.Kind, a.Trigger.In)
		}
	}
	if why := strings.Join(r.Explanations()["first-message"].Texts(), "; "); !strings.Contains(why, "so it is the chat's first message") {
		t.Errorf("--explain first-message: %s", why)
	}
}

// TestGreetingOpensTheChat: a chat SillyTavern starts with a character opens
// with the card's greeting, which is scanned like any message (its keyword
// activates an entry); a transcript that opens with the character's message
// already holds it.
func TestGreetingOpensTheChat(t *testing.T) {
	card := `{"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Aria", "description": "", "personality": "",
		"scenario": "", "first_mes": "Welcome to the {{user}}'s tavern, I am {{char}}.", "mes_example": "",
		"character_book": {"entries": [{"id": 0, "keys": ["tavern"], "content": "The tavern is old.", "comment": "tavern",
			"enabled": true, "insertion_order": 100}]}}}`
	history := func(r *render.Result) string {
		var out []string
		for _, m := range r.Messages {
			if m.Step == render.StepHistory {
				out = append(out, m.Role+": "+m.Content+" ["+strings.Join(m.Sources, ",")+"]")
			}
		}
		return strings.Join(out, " | ")
	}
	r := mustRender(t, stInput(t, card, nil, "hello"))
	if got, want := history(r), "assistant: Welcome to the User's tavern, I am Aria. [first-message] | user: hello [message:0]"; got != want {
		t.Errorf("history:\n got %s\nwant %s", got, want)
	}
	if got := inPrompt(r); !strings.Contains(got, "tavern@before-char") {
		t.Errorf("the greeting's keyword activates nothing: %s", got)
	}
	for _, a := range r.Activated {
		if a.ID == "tavern" && a.Trigger.In != "first-message" {
			t.Errorf("tavern activated in %q, want first-message", a.Trigger.In)
		}
	}
	// A transcript that opens with the character's message: no second greeting.
	in := stInput(t, card, nil, "hello")
	in.Transcript.Messages = []schema.Message{{Role: "assistant", Content: "Hi there."}, {Role: "user", Content: "hello"}}
	r = mustRender(t, in)
	if got, want := history(r), "assistant: Hi there. [message:0] | user: hello [message:1]"; got != want {
		t.Errorf("history:\n got %s\nwant %s", got, want)
	}
	if why := strings.Join(r.Explanations()["first-message"].Texts(), "; "); !strings.Contains(why, "not added again") {
		t.Errorf("--explain first-message: %s", why)
	}
}

// TestCharacterNote: the card's depth prompt (SillyTavern's Character's
// Note) goes into the chat at its depth and role, before the world info of
// the same depth and role (SillyTavern sorts its extension prompts by key:
// DEPTH_PROMPT before customDepthWI-…); a role SillyTavern does not know
// is system, and a depth that is not a number injects nothing.
func TestCharacterNote(t *testing.T) {
	card := func(depth, role string) string {
		return `{"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Aria", "description": "", "personality": "",
			"scenario": "", "first_mes": "", "mes_example": "",
			"extensions": {"depth_prompt": {"prompt": " {{char}} hums. ", "depth": ` + depth + `, "role": ` + role + `}},
			"character_book": {"entries": [{"id": 0, "keys": ["x"], "content": "WI at depth.", "comment": "deep", "enabled": true,
				"constant": true, "insertion_order": 100, "extensions": {"position": 4, "depth": 1, "role": 0}}]}}}`
	}
	history := func(r *render.Result) string {
		var out []string
		for _, m := range r.Messages {
			if m.Step == render.StepHistory {
				out = append(out, m.Role+": "+strings.ReplaceAll(m.Content, "\n", " / ")+" "+strings.Join(m.Sources, ","))
			}
		}
		return strings.Join(out, " | ")
	}
	for _, tc := range []struct{ name, depth, role, want string }{
		{"with the world info", "1", `"system"`, "user: a message:0 | assistant: b message:1 | system: Aria hums. / WI at depth. character-note,deep | user: c message:2"},
		{"own role", "1", `"assistant"`, "user: a message:0 | assistant: b message:1 | assistant: Aria hums. character-note | system: WI at depth. deep | user: c message:2"},
		{"unknown role", "1", `"narrator"`, "user: a message:0 | assistant: b message:1 | system: Aria hums. / WI at depth. character-note,deep | user: c message:2"},
		{"default depth", "null", `"system"`, "system: Aria hums. character-note | user: a message:0 | assistant: b message:1 | system: WI at depth. deep | user: c message:2"},
		{"depth as text", `"1"`, `"system"`, "user: a message:0 | assistant: b message:1 | system: WI at depth. deep | user: c message:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRender(t, stInput(t, card(tc.depth, tc.role), nil, "a", "b", "c"))
			if got := history(r); got != tc.want {
				t.Errorf("history:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestOriginalMacro: in a card's system prompt, {{original}} is the preset's
// main prompt (its macros expanded), once; in its post-history
// instructions, the preset's, which is empty.
func TestOriginalMacro(t *testing.T) {
	card := `{"name": "Aria", "description": "", "personality": "", "scenario": "", "first_mes": "", "mes_example": "",
		"system_prompt": "{{original}} Stay terse. {{ORIGINAL}}", "post_history_instructions": "{{original}}Reply in English."}`
	r := mustRender(t, stInput(t, card, nil, "hello"))
	var main, post string
	for _, m := range r.Messages {
		switch {
		case m.Step == render.StepSystemPresets && main == "":
			main = m.Content
		case m.Step == render.StepPostHistory:
			post = m.Content
		}
	}
	if want := "Write Aria's next reply in a fictional chat between Aria and User. Stay terse. "; main != want {
		t.Errorf("main prompt %q, want %q", main, want)
	}
	if want := "Reply in English."; post != want {
		t.Errorf("post-history instructions %q, want %q", post, want)
	}
}

// TestPersonalityScenarioFormats: the default preset sends a card's
// personality and scenario inside its personality_format and
// scenario_format; the description as it is.
func TestPersonalityScenarioFormats(t *testing.T) {
	card := `{"name": "Aria", "description": "A bard.", "personality": "calm, {{user}}'s friend", "scenario": "a tavern",
		"first_mes": "", "mes_example": ""}`
	r := mustRender(t, stInput(t, card, nil, "hello"))
	var got []string
	for _, m := range r.Messages {
		if m.Step == render.StepSystemPresets {
			got = append(got, m.Content)
		}
	}
	want := []string{"Write Aria's next reply in a fictional chat between Aria and User.", "A bard.",
		"[Aria's personality: calm, User's friend]", "[Circumstances and context of the dialogue: a tavern]"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("system presets:\n got %q\nwant %q", got, want)
	}
}

// TestExampleDialogue: an example block becomes one turn per speaker, as
// SillyTavern's parseExampleIntoIndividual makes it.
func TestExampleDialogue(t *testing.T) {
	for _, tc := range []struct{ name, block, want string }{
		{"two turns", "User: Hi.\nAria: Hello.", "example_user=Hi. | example_assistant=Hello."},
		{"a turn of several lines", "User: Hi.\nAria: Hello.\n*waves*\nUser: Bye.", "example_user=Hi. | example_assistant=Hello.\n*waves* | example_user=Bye."},
		{"narration first joins the first turn", "A quiet inn.\nUser: Hi.\nAria: Hello.", "example_user=A quiet inn.\n Hi. | example_assistant=Hello."},
		{"only the first Name: goes", "Aria: I am Aria: the bard.", "example_assistant=I am Aria: the bard."},
		{"no speaker: nothing", "Aria waves.", ""},
		{"a name only at the start of a line counts", "User: say Aria: hi", "example_user=say Aria: hi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range exampleDialogue(tc.block, "User", "Aria") {
				got = append(got, l.name+"="+l.text)
			}
			if g := strings.Join(got, " | "); g != tc.want {
				t.Errorf("exampleDialogue(%q) = %q, want %q", tc.block, g, tc.want)
			}
		})
	}
}

// TestExplainSourceWords: --explain names a field as the file the book was
// read from spells it, and points at it there: a SillyTavern file's
// disable: true, a card's enabled: false, a lore file's enabled: false.
func TestExplainSourceWords(t *testing.T) {
	for _, c := range []struct {
		name, text, says string
		line, col        int
	}{
		{"st.json", "{\"entries\": {\"0\": {\"uid\": 0, \"key\": [\"x\"], \"comment\": \"off\",\n  \"content\": \"c\", \"disable\": true}}}",
			"disabled (disable: true)", 2, 30},
		{"card.json", "{\"spec\": \"chara_card_v2\", \"spec_version\": \"2.0\", \"data\": {\"name\": \"Nova\", \"character_book\": {\"entries\": [\n" +
			"  {\"keys\": [\"x\"], \"name\": \"off\", \"content\": \"c\", \"enabled\": false, \"insertion_order\": 1}]}}}",
			"disabled (enabled: false)", 2, 61},
		{"book.yaml", "settings: {engine: sillytavern}\nentries:\n  - id: off\n    section: chat-history\n    keywords: [x]\n    content: c\n    enabled: false\n",
			"disabled (enabled: false)", 7, 14},
	} {
		path := filepath.Join(t.TempDir(), c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		lb, _, err := formats.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		counter, _ := tokenize.Get(tokenize.Chars4)
		r := mustRender(t, &render.Input{Book: lb, Transcript: &schema.Transcript{Messages: []schema.Message{{Role: "user", Content: "x"}}},
			Settings: schema.DefaultSettings(), Counter: counter})
		x := r.Explanations()["off"]
		if x == nil || len(x.Reasons) != 1 {
			t.Fatalf("%s: %+v", c.name, x)
		}
		why := x.Reasons[0]
		if why.Text() != c.says || why.Pos.Line != c.line || why.Pos.Col != c.col {
			t.Errorf("%s: %q at %d:%d, want %q at %d:%d", c.name, why.Text(), why.Pos.Line, why.Pos.Col, c.says, c.line, c.col)
		}
	}
}
