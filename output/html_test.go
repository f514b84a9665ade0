package output

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/lorekit/lore/reason"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

func TestGoldenHTML(t *testing.T) {
	cases := []struct {
		file    string
		fixture string
		tight   bool // a 700-token context: Required over its cap, cards and history cut
	}{
		{"eldoria.html", "eldoria", false},
		{"eldoria-tight.html", "eldoria", true},
		{"sakura.html", "sakura", false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			in := fixture(t, c.fixture)
			if c.tight {
				in.Settings.ContextTokens, in.Settings.ResponseReserve = 700, 100
			}
			checkGolden(t, c.file, renderTo(t, in, "html", OutputOptions{}))
		})
	}
}

// TestHTMLEscapes: lorebook and chat text is shown, never interpreted, and the
// page needs nothing from outside itself.
func TestHTMLEscapes(t *testing.T) {
	evil := `<script>alert("x")</script>`
	book := &schema.Lorebook{Manifest: schema.Manifest{Name: "<b>Book</b> & co"}, Entries: []*schema.Entry{
		{ID: `a"b<c>`, Name: evil, Section: "chat-history", Content: evil},
		{ID: "out", Section: "chat-history", Content: "x"},
	}}
	r := &render.Result{Book: book, Breakpoint: -1,
		Messages: []render.Message{{Role: "system", Step: render.StepTriggered, Content: evil + "\n& more", Sources: []string{`a"b<c>`}}},
		Activated: []render.ActivatedOut{{ID: `a"b<c>`, Step: render.StepTriggered,
			Trigger: render.Trigger{Keyword: "</td><script>", In: "message:0"}}},
		Warnings: []string{evil},
	}
	r.SetExplanations(map[string]*render.Explanation{"out": {Reasons: []reason.Reason{{Code: reason.LoreKeywordMatched,
		Params: reason.Params{reason.P("keyword", "<i>"+evil), reason.P("message", 0), reason.P("excerpt", "x")}}}}})
	var b bytes.Buffer
	if err := (htmlOutput{}).Write(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(strings.ToLower(page), "<script") {
		t.Errorf("a <script> tag reached the page:\n%s", page)
	}
	for _, want := range []string{
		"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;\n&amp; more</pre>",
		"<h1>&lt;b&gt;Book&lt;/b&gt; &amp; co</h1>",
		"keyword &#34;&lt;i&gt;&lt;script&gt;",
		`href="#e-a_22_b_3c_c_3e_"`,
		`id="e-a_22_b_3c_c_3e_"`,
		`<code>&lt;/td&gt;&lt;script&gt;</code>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// Self-contained: no stylesheet, script, image or font is fetched.
	if m := regexp.MustCompile(`(?i)(src=|<link|@import|url\()`).FindString(page); m != "" {
		t.Errorf("page loads an external resource: %s", m)
	}
}

// TestHTMLDeterministic renders from freshly loaded inputs several times; the
// template walks only slices, so the bytes must never differ.
func TestHTMLDeterministic(t *testing.T) {
	for _, fx := range []string{"eldoria", "sakura"} {
		a := renderTo(t, fixture(t, fx), "html", OutputOptions{})
		for i := 0; i < 5; i++ {
			if b := renderTo(t, fixture(t, fx), "html", OutputOptions{}); !bytes.Equal(a, b) {
				t.Fatalf("%s: two renders differ", fx)
			}
		}
	}
}

// TestHTMLContent checks what the page must show on the eldoria fixture: steps
// in order with the text output's labels, the breakpoint between 4 and 6, the
// links between prompt and trace, the reasons for what is out, and the chart.
func TestHTMLContent(t *testing.T) {
	page := string(renderTo(t, fixture(t, "eldoria"), "html", OutputOptions{}))
	var order []string
	for _, m := range regexp.MustCompile(`<span class="num">(\d+)</span>|class="breakpoint"`).FindAllStringSubmatch(page, -1) {
		if m[1] == "" {
			order = append(order, "bp")
		} else {
			order = append(order, m[1])
		}
	}
	if got, want := strings.Join(order, " "), "1 2 3 4 bp 6 7 8 9 10 11 12 13"; got != want {
		t.Errorf("steps %s, want %s", got, want)
	}
	for _, want := range []string{
		stepTitles[render.StepTriggered], stepTitles[render.StepBreakpoint],
		// the card injected at depth 2 links to its trace row, which links back
		`<a href="#e-sleeping-stag">sleeping-stag</a>`,
		`<tr id="e-sleeping-stag"><td><a href="#m`,
		`<td class="n">2</td><td><code>tavern</code></td><td><a href="#m`,
		// left out, with activation's reason
		`<tr id="e-rich-traveller">`, "left out: condition gold gte 50 is false",
		// the chart: one bar per section, required and dynamic coloured apart
		`<span class="fill required" style="width: `, `<span class="fill dynamic" style="width: `,
		"under the cap, all of Required is whole",
		"@media (prefers-color-scheme: dark)",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if n := strings.Count(page, `<tr><td><b>`); n < len(render.BudgetSections()) {
		t.Errorf("%d section rows, want %d", n, len(render.BudgetSections()))
	}

	tight := fixture(t, "eldoria")
	tight.Settings.ContextTokens, tight.Settings.ResponseReserve = 700, 100
	page = string(renderTo(t, tight, "html", OutputOptions{}))
	for _, want := range []string{
		"[… cut here to fit the budget]", "over the cap", "message:0 and message:1 left out by the budget",
		`<td class="status bad">2 left out</td>`, "activated, then left out by the budget (cards share",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("tight page lacks %s", want)
		}
	}
}

func TestBarPercent(t *testing.T) {
	for _, c := range []struct{ used, budget, want int }{
		{0, 100, 0}, {1, 1000, 1}, {50, 100, 50}, {99, 100, 99}, {150, 100, 100}, {5, 0, 100}, {0, 0, 0}, {-3, 10, 0},
	} {
		if got := barPercent(c.used, c.budget); got != c.want {
			t.Errorf("barPercent(%d, %d) = %d, want %d", c.used, c.budget, got, c.want)
		}
	}
}

func TestHTMLStackSumsTo100(t *testing.T) {
	for _, rep := range []*render.Report{
		{ContextTokens: 8192, Reserve: 1024, Available: 7168, RequiredUsed: 333, Total: 729},
		{ContextTokens: 700, Reserve: 100, Available: 600, RequiredUsed: 420, Total: 587},
		{ContextTokens: 3, Reserve: 1, Available: 2, RequiredUsed: 1, Total: 2},
		{ContextTokens: 100, Reserve: 90, Available: 10, RequiredUsed: 60, Total: 80}, // over available
	} {
		sum := 0
		for _, s := range buildHTMLChart(rep).Stack {
			if s.Percent < 0 {
				t.Errorf("%+v: negative segment %+v", rep, s)
			}
			sum += s.Percent
		}
		if sum != 100 {
			t.Errorf("%+v: segments sum to %d", rep, sum)
		}
	}
}

func TestEntryAnchor(t *testing.T) {
	for id, want := range map[string]string{
		"old-maren": "e-old-maren", "a_b": "e-a_5f_b", "a b": "e-a_20_b", "旅館": "e-_65c5__9928_", "": "e-",
	} {
		if got := entryAnchor(id); got != want {
			t.Errorf("entryAnchor(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestHTMLEmptyResult(t *testing.T) {
	var b bytes.Buffer
	if err := (htmlOutput{}).Write(&b, &render.Result{Breakpoint: -1}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The prompt is empty.", "No entry is in the prompt.", "No budget report.", "</html>\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("empty page lacks %q", want)
		}
	}
}

// TestHTMLKeepsLeadingNewline: HTML drops one newline right after <pre>, so the
// page writes its own and content that starts with a blank line keeps it.
func TestHTMLKeepsLeadingNewline(t *testing.T) {
	var b bytes.Buffer
	r := &render.Result{Breakpoint: -1, Messages: []render.Message{{Role: "user", Step: render.StepHistory, Content: "\nsecond line"}}}
	if err := (htmlOutput{}).Write(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<pre>\n\nsecond line</pre>") {
		t.Errorf("leading newline lost:\n%s", b.String())
	}
}
