package schema

import (
	"path/filepath"
	"testing"
)

// Every fixture must load clean: they are the examples the README and other
// packages' tests use.
func TestFixturesClean(t *testing.T) {
	books := []string{"../fixtures/eldoria/book", "../fixtures/sakura/book.yaml"}
	more, _ := filepath.Glob("../fixtures/*/book*")
	books = append(books, more...)
	seen := map[string]bool{}
	for _, b := range books {
		if seen[b] {
			continue
		}
		seen[b] = true
		lb, ds, err := Load(b)
		if err != nil {
			t.Errorf("%s: %v", b, err)
			continue
		}
		for _, d := range ds {
			t.Errorf("%s: %s:%d:%d: %s [%s]", b, d.File, d.Line, d.Column, d.Message, d.Rule)
		}
		if len(lb.Entries) == 0 {
			t.Errorf("%s: no entries", b)
		}
	}
	ts, _ := filepath.Glob("../fixtures/*/transcript*")
	vs, _ := filepath.Glob("../fixtures/*/vars*")
	if len(ts) == 0 || len(vs) == 0 {
		t.Fatalf("fixtures missing: %d transcripts, %d variables files", len(ts), len(vs))
	}
	for _, p := range ts {
		tr, ds, err := LoadTranscript(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		for _, d := range ds {
			t.Errorf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
		}
		if len(tr.Messages) == 0 {
			t.Errorf("%s: no messages", p)
		}
	}
	for _, p := range vs {
		_, ds, err := LoadVars(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		for _, d := range ds {
			t.Errorf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
		}
	}
}
