package output

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/engine/lore"
)

// TestHTMLParts: each part lore serve shows is the very markup of the full
// page, so the two pages cannot drift apart.
func TestHTMLParts(t *testing.T) {
	in := fixture(t, "eldoria")
	page := string(renderTo(t, in, "html", OutputOptions{}))
	res, err := lore.Render(in)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := HTMLParts(res)
	if err != nil {
		t.Fatal(err)
	}
	wants := map[string]string{"meta": `<p class="meta">`, "prompt": `<h2>Prompt</h2>`, "trace": `<h2>Trace</h2>`, "tokens": `<h2>Tokens</h2>`}
	for _, name := range HTMLPartNames {
		p := string(parts[name])
		if !strings.Contains(page, p) {
			t.Errorf("part %q is not in the page:\n%s", name, p)
		}
		if w := wants[name]; w != "" && !strings.HasPrefix(p, w) {
			t.Errorf("part %q starts %.40q, want %q", name, p, w)
		}
	}
	if !strings.Contains(string(parts["trace"]), "sleeping-stag") {
		t.Errorf("the trace part does not name sleeping-stag")
	}
	css := string(HTMLStyle())
	if !strings.HasPrefix(css, ":root {") || !strings.Contains(page, "<style>\n"+css+"</style>") {
		t.Errorf("HTMLStyle is not the page's style sheet: %.80q", css)
	}
}
