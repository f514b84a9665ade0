package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lorekit/lore/formats"
)

// TestCorpus lints every real-world file of ../shared/corpus (SillyTavern worlds,
// character cards, NovelAI and AI Dungeon exports): none may panic, and every
// finding must have a position. The findings themselves are reviewed by hand
// (go test -run TestCorpus -v lists them).
func TestCorpus(t *testing.T) {
	root := "../../shared/corpus"
	if _, err := os.Stat(root); err != nil {
		t.Skip("no corpus at", root)
	}
	n := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) == ".md" {
			return nil
		}
		n++
		book, ds, err := formats.Open(p)
		if err != nil {
			t.Logf("%s: unreadable (%v)", p, err)
			return nil
		}
		out := RunWith(book, nil, nil, ds)
		for _, d := range out {
			if d.File == "" || d.Rule == "" || d.Severity == 0 {
				t.Errorf("%s: finding without position or rule: %+v", p, d)
			}
		}
		t.Logf("%s: %d findings", p, len(out))
		return nil
	})
	if n == 0 {
		t.Error("corpus is empty")
	}
}
