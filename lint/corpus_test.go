package lint

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/internal/testcorpus"
)

// TestCorpus lints every real-world file of ../shared/corpus (SillyTavern worlds,
// character cards, NovelAI and AI Dungeon exports): none may panic, and every
// finding must have a position. The findings themselves are reviewed by hand
// (go test -run TestCorpus -v lists them).
func TestCorpus(t *testing.T) {
	for _, p := range testcorpus.Files(t) {
		book, ds, err := formats.Open(p)
		if err != nil {
			// Two files are broken on purpose (SOURCES.md); anything else
			// that does not open is a regression, not a file to pass over.
			if !strings.Contains(p, "TRUNCATED") && !strings.HasSuffix(p, "invalid.json") {
				t.Errorf("%s: unreadable: %v", p, err)
			}
			continue
		}
		out := RunWith(book, nil, nil, ds)
		for _, d := range out {
			if d.File == "" || d.Rule == "" || d.Severity == 0 {
				t.Errorf("%s: finding without position or rule: %+v", p, d)
			}
		}
		t.Logf("%s: %d findings", p, len(out))
	}
}
