package lsp

// The server's books: which book a file is in, analysing it (at once, or
// after the debounce), publishing what changed, and the analysis a request
// is answered from.

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/lorekit/lore/schema"
)

// bookFor is the book of an open or saved file; "" for a file that is no
// lorebook (a transcript, package.json). s.mu is held.
func (s *Server) bookFor(path string) string {
	if path == "" {
		return ""
	}
	b := bookOf(path, s.root)
	if b != path {
		return b
	}
	if _, known := s.books[path]; known {
		return path // a book of one file stays one while it is open
	}
	var data []byte
	if t, ok := s.docs[path]; ok {
		data = []byte(t.s)
	} else if d, err := schema.ReadBytes(path); err == nil {
		data = d
	} else {
		return ""
	}
	if !isBook(path, data) {
		return ""
	}
	return path
}

// overlay is the open documents' text, for the loaders.
func (s *Server) overlay() schema.Overlay {
	ov := make(schema.Overlay, len(s.docs))
	for p, t := range s.docs {
		ov[p] = []byte(t.s)
	}
	return ov
}

// analyse analyses book now and publishes what changed. s.mu is held.
func (s *Server) analyse(ctx context.Context, book string) *analysis {
	a := analyze(book, s.overlay(), s.opts, s.root)
	prev := s.books[book]
	s.books[book] = a
	delete(s.dirty, book)
	pub := maps.Clone(a.published())
	if prev != nil {
		for _, f := range prev.files {
			if _, ok := pub[f]; !ok {
				pub[f] = []protocol.Diagnostic{}
			}
		}
		for f := range prev.published() {
			if _, ok := pub[f]; !ok {
				pub[f] = []protocol.Diagnostic{}
			}
		}
	}
	s.publish(ctx, pub)
	if s.analysed != nil {
		s.analysed(book)
	}
	return a
}

// publish sends each file's diagnostics that differ from what it shows.
func (s *Server) publish(ctx context.Context, pub map[string][]protocol.Diagnostic) {
	for _, f := range slices.Sorted(maps.Keys(pub)) {
		b, _ := json.Marshal(pub[f])
		if old, ok := s.shown[f]; ok && old == string(b) || !ok && len(pub[f]) == 0 && !s.isOpen(f) {
			continue
		}
		s.shown[f] = string(b)
		if s.conn != nil {
			_ = s.conn.Notify(ctx, "textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: pathToURI(f), Diagnostics: pub[f]})
		}
	}
}

func (s *Server) isOpen(f string) bool { _, ok := s.docs[f]; return ok }

// forget drops a book and clears its files' diagnostics. s.mu is held.
func (s *Server) forget(ctx context.Context, book string) {
	a := s.books[book]
	delete(s.books, book)
	delete(s.dirty, book)
	if a == nil {
		return
	}
	pub := map[string][]protocol.Diagnostic{}
	for f := range a.published() {
		pub[f] = []protocol.Diagnostic{}
	}
	s.publish(ctx, pub)
	for f := range pub {
		delete(s.shown, f)
	}
}

func (s *Server) reanalyseAll(ctx context.Context) {
	for _, b := range slices.Sorted(maps.Keys(s.books)) {
		s.analyse(ctx, b)
	}
}

// schedule analyses the dirty books once no change has come for
// s.Debounce. s.mu is held.
func (s *Server) schedule(ctx context.Context) {
	if s.timer != nil {
		s.timer.Stop()
	}
	s.timer = time.AfterFunc(s.Debounce, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.flush(ctx)
	})
}

// flush analyses every dirty book. s.mu is held.
func (s *Server) flush(ctx context.Context) {
	for _, b := range slices.Sorted(maps.Keys(s.dirty)) {
		func() {
			defer func() { _ = recover() }() // analyze recovers; this is for publishing
			s.analyse(ctx, b)
		}()
	}
}

// current is the up-to-date analysis of the book of path: a request after
// a change does not wait for the debounce, it analyses first.
func (s *Server) current(ctx context.Context, path string) *analysis {
	b := s.bookFor(path)
	if b == "" {
		return nil
	}
	if a, ok := s.books[b]; ok && !s.dirty[b] {
		return a
	}
	return s.analyse(ctx, b)
}

func (s *Server) doc(ctx context.Context, uri string) (*analysis, string) {
	path := uriToPath(uri)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current(ctx, path), path
}

// at is the analysis, file and lore line and column of a position.
func (s *Server) at(ctx context.Context, p protocol.TextDocumentPositionParams) (*analysis, string, int, int) {
	a, path := s.doc(ctx, p.TextDocument.URI)
	t := s.textOf(path, a)
	if a == nil || t == nil {
		return nil, path, 0, 0
	}
	line, col := t.fromLSP(p.Position)
	return a, path, line, col
}

func (s *Server) textOf(path string, a *analysis) *text {
	if a != nil {
		if t := a.text(path); t != nil {
			return t
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[path]
}

func (a *analysis) locations(ps []place) []protocol.Location {
	out := []protocol.Location{}
	for _, p := range ps {
		out = append(out, a.location(p))
	}
	return out
}
