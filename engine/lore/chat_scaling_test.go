package lore

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/internal/scaling"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// TestLongChatCostsWhatIsSent: rendering against a 20,000-message chat
// allocates less than twice what a 2,000-message one does (issue 24), when
// the caller shows what is sent (SentOnly): history is weighed newest first
// and stops at the first message that does not fit, the window scans what it
// covers, so the cost follows what is sent. The chats are parsed beforehand:
// reading a file is linear in its length, and not the render's.
func TestLongChatCostsWhatIsSent(t *testing.T) {
	if testing.Short() {
		t.Skip("renders against a chat of 20,000 messages")
	}
	dir := t.TempDir()
	path, err := bookgen.Write(dir, bookgen.CJK, 1000)
	if err != nil {
		t.Fatal(err)
	}
	book, ds, err := schema.Load(path)
	if err != nil || len(ds) > 0 {
		t.Fatalf("loading the book: %v %v", err, ds)
	}
	counter, err := tokenize.Get(tokenize.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	cost := func(messages int) scaling.Cost {
		p := filepath.Join(dir, "chat.yaml")
		if err := os.WriteFile(p, bookgen.HardChat(1000, messages), 0o644); err != nil {
			t.Fatal(err)
		}
		tr, ds, err := schema.LoadTranscript(p)
		if err != nil || len(ds) > 0 {
			t.Fatalf("loading the chat: %v %v", err, ds)
		}
		in := &render.Input{Book: book, Transcript: tr, Settings: book.Manifest.Settings, Counter: counter, SentOnly: true}
		if in.Settings.ContextTokens != bookgen.HardContext {
			t.Fatalf("the hard shape's context is %d, want %d", in.Settings.ContextTokens, bookgen.HardContext)
		}
		return scaling.Measure(func() {
			if _, err := Render(in); err != nil {
				t.Fatal(err)
			}
		})
	}
	short, long := cost(2000), cost(20000)
	ga, gb := float64(long.Allocs)/float64(short.Allocs), float64(long.Bytes)/float64(short.Bytes)
	if ga >= 2 || gb >= 2 {
		t.Errorf("a 20,000-message chat allocates %.2f× (count) and %.2f× (bytes) what a 2,000-message one does, want under 2×\n  2,000: %v\n  20,000: %v", ga, gb, short, long)
	}
	t.Logf("2,000 → 20,000 messages: allocations ×%.2f, bytes ×%.2f", ga, gb)
}
