package sillytavern

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// longChat is the bundled Eldoria book with a generated chat of n messages
// and SillyTavern's default context (8192 − 1024).
func longChat(tb testing.TB, n int) *render.Input {
	tb.Helper()
	lb, _, err := schema.Load("../../fixtures/eldoria/book")
	if err != nil {
		tb.Fatal(err)
	}
	tr := &schema.Transcript{}
	for _, t := range bookgen.Chat(n) {
		tr.Messages = append(tr.Messages, schema.Message{Role: t.Role, Content: t.Content})
	}
	counter, err := tokenize.Get(tokenize.O200kBase)
	if err != nil {
		tb.Fatal(err)
	}
	return &render.Input{Book: lb, Transcript: tr, Settings: schema.DefaultSettings(), Counter: counter}
}

// TestLongChat: on a 3,000-message chat the prompt fits the context, holds
// the newest messages without a gap, and stops where SillyTavern stops: the
// newest message left out costs more than what the chat had left.
func TestLongChat(t *testing.T) {
	in := longChat(t, 3000)
	r := mustRender(t, in)
	rep := r.Report
	if rep.Total > rep.Available || rep.Available != 7168 {
		t.Fatalf("%d of %d tokens", rep.Total, rep.Available)
	}
	var sent []int
	for _, m := range r.Messages {
		for _, s := range m.Sources {
			if n, ok := strings.CutPrefix(s, "message:"); ok {
				i, _ := strconv.Atoi(n)
				sent = append(sent, i)
			}
		}
	}
	if len(sent) == 0 || sent[len(sent)-1] != 2999 {
		t.Fatalf("the newest message is not sent: %v", sent)
	}
	for k := 1; k < len(sent); k++ {
		if sent[k] != sent[k-1]+1 {
			t.Fatalf("a gap in the chat sent: %d then %d", sent[k-1], sent[k])
		}
	}
	cut := rep.HistoryCut
	if cut == nil || cut.Last != fmt.Sprintf("message:%d", sent[0]-1) || cut.Messages != sent[0]+1 || cut.First != "greeting" {
		t.Fatalf("history cut %+v, first sent message:%d", cut, sent[0])
	}
	// What the chat had left when it stopped: what the prompt leaves, and
	// what the examples (filled after it) took.
	left := rep.Available - rep.Total + rep.Section("examples").Tokens
	next := in.Transcript.Messages[sent[0]-1]
	cost := 3 + in.Counter.Count(next.Role) + in.Counter.Count(next.Content)
	if cost <= left {
		t.Errorf("message:%d costs %d and %d were left: SillyTavern would have sent it", sent[0]-1, cost, left)
	}
	t.Logf("3,000 messages: %d sent, %d left out, %d of %d tokens, %d left when message:%d (%d tokens) did not fit",
		len(sent), cut.Messages, rep.Total, rep.Available, left, sent[0]-1, cost)
}

// BenchmarkLongChat renders the Eldoria book with chats of 2,000 and
// 20,000 messages: only the messages sent and the scan's window are read,
// so the longer chat must take under twice as long (TestLongChatScales
// holds the allocations to that).
func BenchmarkLongChat(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		in := longChat(b, n)
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := New().Render(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestLongChatScales: a chat ten times longer allocates less than twice as
// much (deterministic, unlike time).
func TestLongChatScales(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a 20,000-message chat")
	}
	allocs := func(n int) float64 {
		in := longChat(t, n)
		return testing.AllocsPerRun(2, func() {
			if _, err := New().Render(in); err != nil {
				t.Fatal(err)
			}
		})
	}
	a, b := allocs(2000), allocs(20000)
	if b > 2*a {
		t.Errorf("allocations: %.0f at 2,000 messages, %.0f at 20,000 (%.2f×)", a, b, b/a)
	}
	t.Logf("allocations: %.0f at 2,000 messages, %.0f at 20,000 (%.2f×)", a, b, b/a)
}

// TestChatTailSame: reading only the chat's newest end (and more when the
// history needs it) renders what reading the whole chat does — with system
// and empty messages among the others, a chat that opens with the user (the
// greeting before it), swipes and regenerations, and budgets from a few
// messages to the whole chat.
func TestChatTailSame(t *testing.T) {
	base := longChat(t, 1500)
	var msgs []schema.Message
	for i, m := range base.Transcript.Messages {
		switch {
		case i%97 == 5:
			msgs = append(msgs, schema.Message{Role: "system", Content: "a note"})
		case i%89 == 3:
			m.Content = ""
		}
		msgs = append(msgs, m)
	}
	sys := schema.Message{Role: "system", Content: "the scene"}
	msgs = append([]schema.Message{sys, sys}, msgs...) // opening with system messages
	for _, ctx := range []float64{300, 2000, 7168, 60000, 1e6} {
		for _, gen := range []string{"normal", "swipe", "regenerate", "continue"} {
			for _, from := range []int{0, 2, 3} { // from 3 the chat opens with a character message
				render := func(slack float64) *render.Result {
					old := tailSlack
					tailSlack = slack
					defer func() { tailSlack = old }()
					in := *base
					in.Transcript = &schema.Transcript{Messages: msgs[from:]}
					in.EngineSettings = map[string]any{"maxContext": ctx, "generationType": gen}
					return mustRender(t, &in)
				}
				a, b := render(64), render(1e9)
				if !reflect.DeepEqual(a.Messages, b.Messages) || !reflect.DeepEqual(a.Report, b.Report) ||
					!reflect.DeepEqual(a.Activated, b.Activated) {
					t.Errorf("context %v, %s, from %d: the tail renders %d messages (%+v), the whole chat %d (%+v)",
						ctx, gen, from, len(a.Messages), a.Report.HistoryCut, len(b.Messages), b.Report.HistoryCut)
				}
			}
		}
	}
}
