package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func expect(t *testing.T, w *Watcher, want bool, what string) {
	t.Helper()
	wait := 2 * time.Second
	if !want {
		wait = 3 * Debounce
	}
	select {
	case <-w.Changes():
		if !want {
			t.Errorf("%s: reported as a change", what)
		}
	case <-time.After(wait):
		if want {
			t.Errorf("%s: no change reported within %v", what, wait)
		}
	}
}

func TestWatcher(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book")
	if err := os.MkdirAll(filepath.Join(book, "entries"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(book, "lorebook.yaml"), "name: x\n")
	tr := filepath.Join(dir, "transcript.yaml")
	write(t, tr, "messages: []\n")
	other := filepath.Join(dir, "notes.yaml")

	w, err := New([]string{book, tr, "", filepath.Join(dir, "vars.yaml")}, []string{".yaml", ".yml", ".json"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	write(t, filepath.Join(book, "entries", "a.yaml"), "id: a\n")
	expect(t, w, true, "a new entry file in a subfolder")

	write(t, filepath.Join(book, "entries", "a.yaml.swp"), "x")
	write(t, filepath.Join(book, "README.md"), "x")
	write(t, other, "x: 1\n")
	expect(t, w, false, "a swap file, a file of another kind, a file beside the book")

	// Several writes in a row are one change.
	for i := range 5 {
		write(t, filepath.Join(book, "lorebook.yaml"), "name: x"+string(rune('0'+i))+"\n")
	}
	expect(t, w, true, "five writes")
	expect(t, w, false, "the same five writes again")

	// An editor's save: a new file renamed over the transcript.
	tmp := filepath.Join(dir, ".transcript.yaml.tmp")
	write(t, tmp, "messages: [{role: user, content: hi}]\n")
	if err := os.Rename(tmp, tr); err != nil {
		t.Fatal(err)
	}
	expect(t, w, true, "a file renamed over the transcript")

	// A folder made after the watch began is watched too.
	sub := filepath.Join(book, "more")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	expect(t, w, true, "a new folder")
	write(t, filepath.Join(sub, "b.yaml"), "id: b\n")
	expect(t, w, true, "a file in the new folder")

	// A file that did not exist when the watch began.
	write(t, filepath.Join(dir, "vars.yaml"), "gold: 1\n")
	expect(t, w, true, "the variables file made")

	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(book, "lorebook.yaml"), "name: closed\n")
	expect(t, w, false, "a write after Close")
}

func TestNewMissingFolder(t *testing.T) {
	if _, err := New([]string{filepath.Join(t.TempDir(), "no", "such", "file.yaml")}, nil); err == nil {
		t.Error("watching a file in a folder that does not exist: no error")
	}
}
