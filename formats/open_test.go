package formats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenTruncatedPNG: a PNG cut inside its signature is a truncated PNG,
// not invalid UTF-8 text (issue 15).
func TestOpenTruncatedPNG(t *testing.T) {
	for _, n := range []int{1, 5, 7} {
		p := filepath.Join(t.TempDir(), "card.png")
		if err := os.WriteFile(p, pngSignature[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := Open(p)
		want := "card.png: PNG byte " + string(rune('0'+n)) + ": the file ends inside the PNG signature: a truncated or unreadable PNG"
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%d bytes: got %v, want …%s", n, err, want)
		}
	}
}

// TestOpenSizeLimitWording: formats refuses a huge file in schema's words,
// from the stat (a sparse file: nothing is read).
func TestOpenSizeLimitWording(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil {
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	_, _, err = Open(p)
	want := "huge.json: file is 100 MiB, over the 64 MiB limit: lorebooks are text; is this the right file?"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v, want …%s", err, want)
	}
}
