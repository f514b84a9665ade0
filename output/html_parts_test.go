package output

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lorekit/lore/engine/lore"
	"github.com/lorekit/lore/schema"
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
	parts, err := HTMLParts(res, HTMLOptions{})
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

// TestHTMLPartsLeftOut: the left-out table trimmed by a filter or a limit
// says how many entries it does not show.
func TestHTMLPartsLeftOut(t *testing.T) {
	in := fixture(t, "eldoria")
	res, err := lore.Render(in)
	if err != nil {
		t.Fatal(err)
	}
	full, _ := HTMLParts(res, HTMLOptions{})
	n := strings.Count(string(full["trace"]), `<td class="nowrap">`)
	if n < 2 {
		t.Fatalf("eldoria leaves out %d entries; the test needs 2 or more", n)
	}
	cases := []struct {
		name  string
		opts  HTMLOptions
		rows  int
		wants []string
	}{
		{"limit", HTMLOptions{LeftOutLimit: 1}, 1, []string{fmt.Sprintf("Not in the prompt (%d)", n), fmt.Sprintf("%d more not shown: search", n-1)}},
		{"filter", HTMLOptions{LeftOutFilter: func(e *schema.Entry) bool { return e.ID == "act2-ambush" }}, 1, []string{"act2-ambush", fmt.Sprintf("%d more not shown", n-1)}},
		{"nothing matches", HTMLOptions{LeftOutFilter: func(*schema.Entry) bool { return false }}, 0, []string{fmt.Sprintf("None of the %d entries left out matches the search.", n)}},
	}
	for _, c := range cases {
		parts, err := HTMLParts(res, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		trace := string(parts["trace"])
		if got := strings.Count(trace, `<td class="nowrap">`); got != c.rows {
			t.Errorf("%s: %d rows, want %d", c.name, got, c.rows)
		}
		for _, w := range c.wants {
			if !strings.Contains(trace, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, trace)
			}
		}
	}
}
