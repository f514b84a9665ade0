package lsp

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lorekit/lore/internal/bookgen"
)

// editServer is a server with one generated book of n entries open, and a
// function that makes edit i to it through didChange (alternating two
// spellings of one word of the first entry's content, so the book's
// findings stay the same size) and then analyses, as the debounce would.
func editServer(t testing.TB, n int) (*Server, func(i int)) {
	dir := t.TempDir()
	path, err := bookgen.Write(dir, bookgen.YAML, n)
	if err != nil {
		t.Fatal(err)
	}
	path, _ = filepath.Abs(path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	s.Debounce = time.Hour // the test analyses itself
	ctx := context.Background()
	call := func(method string, params any) {
		req := &jsonrpc2.Request{Method: method, Notif: true}
		if err := req.SetParams(params); err != nil {
			t.Fatal(err)
		}
		if _, err := s.handle(ctx, nil, req); err != nil {
			t.Fatal(err)
		}
	}
	uri := pathToURI(path)
	call("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": string(data)}})
	text := string(data)
	at := strings.Index(text, "content: ") + len("content: ")
	edit := func(i int) {
		word := "Alpha "
		if i%2 == 1 {
			word = "Omega "
		}
		call("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []map[string]any{{"text": text[:at] + word + text[at:]}}})
		s.mu.Lock()
		s.flush(ctx)
		s.mu.Unlock()
	}
	return s, edit
}

// BenchmarkReanalyse1000 is what one edit of a 1,000-entry book costs the
// server before it republishes: reading the book from the buffer, validate
// and lint, and turning the findings into LSP diagnostics.
func BenchmarkReanalyse1000(b *testing.B) {
	s, edit := editServer(b, 1000)
	if len(s.books) != 1 {
		b.Fatalf("%d books open", len(s.books))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		edit(i)
	}
}

// TestMemoryFlatOverEdits: 1,000 edits leave the heap where 100 left it
// (within 4 MiB): no analysis, text or published diagnostics is kept past
// the next one.
func TestMemoryFlatOverEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 analyses")
	}
	_, edit := editServer(t, 40)
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for i := 0; i < 100; i++ {
		edit(i)
	}
	before := heap()
	for i := 100; i < 1000; i++ {
		edit(i)
	}
	after := heap()
	t.Logf("heap after 100 edits %d KiB, after 1,000 %d KiB", before>>10, after>>10)
	if after > before+4<<20 {
		t.Errorf("heap grew from %d KiB to %d KiB over 900 edits", before>>10, after>>10)
	}
}
