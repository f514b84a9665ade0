package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadOverlayReadsBuffersOverDisk(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("lorebook.yaml", "name: Book\n")
	tavern := write("tavern.yaml", "id: tavern\nsection: chat-history\ncontent: On disk.\n")

	lb, ds, err := LoadOverlay(dir, Overlay{tavern: []byte("id: tavern\nsection: chat-history\ncontent: In the buffer.\n")})
	if err != nil || len(ds) != 0 {
		t.Fatalf("LoadOverlay: %v %v", err, ds)
	}
	if got := lb.Entries[0].Content; got != "In the buffer." {
		t.Errorf("content = %q, want the buffer's", got)
	}

	// A broken buffer is the load error of that file, at its line.
	_, _, err = LoadOverlay(dir, Overlay{tavern: []byte("id: tavern\ncontent: [unclosed\n")})
	if err == nil || !strings.Contains(err.Error(), "tavern.yaml:") {
		t.Errorf("broken buffer: err = %v, want one naming tavern.yaml", err)
	}

	// A single file reads from the overlay too; without it, from disk.
	lb, _, err = LoadOverlay(tavern, Overlay{tavern: []byte("id: tavern\nsection: chat-history\ncontent: Single.\n")})
	if err != nil || lb.Entries[0].Content != "Single." {
		t.Errorf("single file: %v %+v", err, lb)
	}
	lb, _, err = LoadOverlay(tavern, nil)
	if err != nil || lb.Entries[0].Content != "On disk." {
		t.Errorf("no overlay: %v %+v", err, lb)
	}
}
