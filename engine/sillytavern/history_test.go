package sillytavern

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/reason"
)

// TestHistoryBudget pins SillyTavern's Chat Completion arithmetic on a case
// worked by hand, with chars4 (a text of n bytes is (n+3)/4 tokens; the
// roles "system", "user", "assistant" are 2, 1 and 3) and a message costing
// 3 + role + content:
//
//	reply priming                                           3
//	main prompt, 76 bytes: 19 + 2 + 3                      24
//	world info before "Lore of the realm.", 18 bytes: 5+2+3  10
//	[Start a new Chat], 18 bytes: 5 + 2 + 3                10
//	fixed                                                  47
//
// maxContext 126 leaves 79 for the chat. Messages 0–9 alternate user and
// character; 5–9 have 36 bytes (9 tokens: a user message costs 13, a
// character's 15), 4 has 100 (25 + 1 + 3 = 29), 3 is "ok" (1 + 3 + 3 = 7).
// Newest first: 9 (15) leaves 64, 8 (13) 51, 7 (15) 36, 6 (13) 23, 5 (15)
// 8; 4 needs 29 and does not fit, so SillyTavern stops there — message 3
// would fit in the 8 left, and is not sent. The total is 47 + 71 = 118.
// The depth-7 entry goes in after the 7 newest messages (between 3 and 2),
// which were left out with them.
func TestHistoryBudget(t *testing.T) {
	book := `{"entries": {
		"0": {"uid": 0, "comment": "realm", "content": "Lore of the realm.", "constant": true, "position": 0},
		"1": {"uid": 1, "comment": "deep", "content": "D", "constant": true, "position": 4, "depth": 7}}}`
	m36 := strings.Repeat("m", 36)
	chat := []string{m36, m36, m36, "ok", strings.Repeat("l", 100), m36, m36, m36, m36, m36}
	r := mustRender(t, stInput(t, book, map[string]any{"maxContext": 126.0}, chat...))
	var sent []string
	for _, m := range r.Messages {
		sent = append(sent, strings.Join(m.Sources, ","))
	}
	want := "main-prompt realm  message:5 message:6 message:7 message:8 message:9"
	if got := strings.Join(sent, " "); got != want {
		t.Errorf("sent %q, want %q", got, want)
	}
	if r.Report.Total != 118 || r.Report.Available != 126 {
		t.Errorf("total %d of %d, want 118 of 126", r.Report.Total, r.Report.Available)
	}
	cut := r.Report.HistoryCut
	if cut == nil || cut.Messages != 5 || cut.First != "message:0" || cut.Last != "message:4" {
		t.Fatalf("history cut %+v, want messages 0–4", cut)
	}
	if h := r.Report.Section("history"); h == nil || h.Tokens != 71 || h.Budget != 79 {
		t.Errorf("history section %+v, want 71 of 79", h)
	}
	if got := inPrompt(r); got != "realm@before-char" {
		t.Errorf("in the prompt: %s", got)
	}
	x := r.Explanations()["deep"]
	if x == nil || len(x.Reasons) == 0 || x.Reasons[len(x.Reasons)-1].Code != reason.STHistoryLeftOut {
		t.Errorf("deep's reasons: %v", x.Texts())
	}
	// One token more and message 4 still does not fit; 21 more and it does.
	r = mustRender(t, stInput(t, book, map[string]any{"maxContext": 147.0}, chat...))
	if cut := r.Report.HistoryCut; cut == nil || cut.Messages != 4 || cut.Last != "message:3" {
		t.Errorf("at 147: %+v, want messages 0–3 left out", cut)
	}
}

// TestExamplesBudget: the example dialogues take what the chat leaves,
// block by block. The block "<START>\nUser: hi\nCharacter: hello" costs
// its [Example Chat] marker (14 bytes: 4 + 2 + 3 = 9), "hi" as
// example_user (1 + 2 + 3 + name 3 + 1 = 10) and "hello" as
// example_assistant (2 + 2 + 3 + name 5 + 1 = 13): 32. The fixed part is
// the priming, the main prompt and the chat marker, 37; the one message "x"
// (1 + 1 + 3 = 5) makes 42, so 74 sends the block and 73 does not.
func TestExamplesBudget(t *testing.T) {
	book := `{"entries": {
		"0": {"uid": 0, "comment": "ex", "content": "<START>\nUser: hi\nCharacter: hello", "constant": true, "position": 5}}}`
	r := mustRender(t, stInput(t, book, map[string]any{"maxContext": 74.0}, "x"))
	if got := inPrompt(r); got != "ex@em-top" || r.Report.Total != 74 {
		t.Errorf("at 74: %s, total %d", got, r.Report.Total)
	}
	r = mustRender(t, stInput(t, book, map[string]any{"maxContext": 73.0}, "x"))
	if got := inPrompt(r); got != "" || r.Report.Total != 42 || r.Report.HistoryCut != nil {
		t.Errorf("at 73: %q, total %d, cut %+v", got, r.Report.Total, r.Report.HistoryCut)
	}
	x := r.Explanations()["ex"]
	if x == nil || x.Reasons[len(x.Reasons)-1].Code != reason.STExamplesLeftOut {
		t.Errorf("ex's reasons: %v", x.Texts())
	}
	if ex := r.Report.Section("examples"); ex == nil || len(ex.Dropped) != 1 || ex.Notes[0].Tokens != 32 {
		t.Errorf("examples section %+v", ex)
	}
}
