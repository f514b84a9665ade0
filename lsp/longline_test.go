package lsp

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/internal/scaling"
)

// TestLongLineMarks: on lines long enough to get marks, every conversion
// gives what walking the line from its start gives (utf16Col, runeCol, the
// byte offset, span), around and between the marks, with CJK, emoji
// (surrogate pairs) and combining marks on either side of them.
func TestLongLineMarks(t *testing.T) {
	pieces := []string{"a", "桜", "🐉", "e\u0301", " ", `"`, `\`, "'", "é"}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		var b strings.Builder
		for b.Len() < longLine*3+r.IntN(longLine) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := b.String()
		tx := newText([]byte("x\n" + line + "\r\ny"))
		if tx.marksOf(1, tx.line(1)) == nil {
			t.Fatal("a long line got no marks")
		}
		n := utf8.RuneCountInString(line)
		for col := 1; col <= n+2; col++ {
			if got, want := tx.toLSP(2, col).Character, utf16Col(line, col); got != want {
				t.Fatalf("trial %d col %d: %d UTF-16 units, want %d", trial, col, got, want)
			}
			if got, want := tx.byteOf(1, line, col), byteOfCol(line, col); got != want {
				t.Fatalf("trial %d col %d: byte %d, want %d", trial, col, got, want)
			}
			if got, want := tx.span(1, col, []string{"桜a"}), span(line, col, []string{"桜a"}); got != want {
				t.Fatalf("trial %d col %d: span %d, want %d", trial, col, got, want)
			}
		}
		for u := uint32(0); u <= utf16Col(line, n+1)+1; u++ {
			if _, got := tx.fromLSP(protocol.Position{Line: 1, Character: u}); got != runeCol(line, u) {
				t.Fatalf("trial %d unit %d: col %d, want %d", trial, u, got, runeCol(line, u))
			}
		}
	}
}

// TestMinifiedBookLinear: a minified SillyTavern book is one line holding
// every finding; turning them into LSP ranges must not walk that line from
// its start for each (it did, and 4,000 entries took 18.6 s).
func TestMinifiedBookLinear(t *testing.T) {
	scaling.Linear(t, 500, func(n int) func() {
		dir := t.TempDir()
		path, err := bookgen.Write(dir, bookgen.SillyTavernFindings, n)
		if err != nil {
			t.Fatal(err)
		}
		path, _ = filepath.Abs(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return func() {
			s := New()
			s.Debounce = time.Hour
			ctx := context.Background()
			req := &jsonrpc2.Request{Method: "textDocument/didOpen", Notif: true}
			if err := req.SetParams(map[string]any{"textDocument": map[string]any{"uri": pathToURI(path), "languageId": "json", "version": 1, "text": string(data)}}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.handle(ctx, nil, req); err != nil {
				t.Fatal(err)
			}
			s.mu.Lock()
			s.flush(ctx)
			if len(s.shown) == 0 {
				t.Error("no diagnostics published for the minified book")
			}
			s.mu.Unlock()
		}
	})
}
