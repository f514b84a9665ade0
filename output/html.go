package output

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// htmlOutput is `render --format html` (SPEC §7): one self-contained page with
// the prompt grouped by assembly step, the trace of every entry, and a token
// chart of the budget. It loads nothing from the network and needs no script:
// steps fold with <details>, bar widths are integer percentages computed here.
// Every piece of lorebook or chat text goes through html/template, so a
// `<script>` in an entry is shown, never run.
type htmlOutput struct{}

func (htmlOutput) Write(w io.Writer, r *render.Result) error {
	// The template writes in many small pieces; stdout is unbuffered.
	bw := bufio.NewWriter(w)
	if err := htmlPageTemplate.Execute(bw, buildHTMLPage(r)); err != nil {
		return err
	}
	return bw.Flush()
}

// htmlPage is everything the template shows, computed up front so the
// template holds no logic beyond loops and optional parts.
type htmlPage struct {
	Name      string
	NMessages int
	Report    *render.Report
	Warnings  []string
	Steps     []htmlStep
	Activated []htmlTraceRow
	LeftOut   []htmlLeftOut
	// LeftOutRows are LeftOut's table rows, written by writeLeftOutRows:
	// one per entry, thousands in a large book (html_rows.go).
	LeftOutRows template.HTML
	// LeftOutCount is how many entries are not in the prompt; LeftOutHidden
	// how many of them LeftOut leaves out (HTMLOptions' filter and limit).
	LeftOutCount, LeftOutHidden int
	Chart                       *htmlChart
}

// htmlStep is one assembly step of SPEC §3, or the cache breakpoint between
// steps 4 and 6 (Breakpoint set, no messages).
type htmlStep struct {
	Num        int
	Title      string
	Breakpoint bool
	Note       string // history: which older messages the budget left out
	Messages   []htmlMessage
}

type htmlMessage struct {
	Anchor  string
	Role    string
	Class   string // the role's CSS class; roles outside the three get "other"
	Sources []htmlLink
	Why     string
	Section string
	Content string
	Cut     bool
}

// htmlLink is a text with an optional in-page target.
type htmlLink struct {
	Text string
	Href string
}

type htmlTraceRow struct {
	Anchor    string
	ID        string
	Name      string
	Pos       string
	Prompt    string // the first message holding the entry
	Step      int
	StepTitle string
	Depth     string
	Keyword   string
	Kind      string // shown instead of a keyword: always sent, constant, greeting
	In        htmlLink
	Recursion int
}

type htmlLeftOut struct {
	Anchor  string
	ID      string
	Name    string
	Section string
	Pos     string
	Reasons []string
}

type htmlChart struct {
	Stack         []htmlSegment
	Sections      []htmlBar
	Markers       int
	Total         int
	Available     int
	Required      htmlBar
	RequiredCap   int
	CapPercent    int
	RequiredOver  bool
	Remainder     int
	Notes         []htmlNote
	Largest       []render.EntrySize
	ContextTokens int
	Reserve       int
}

// htmlSegment is one part of the whole-context bar.
type htmlSegment struct {
	Class   string
	Label   string
	Tokens  int
	Percent int
}

type htmlBar struct {
	Name    string
	Class   string // required | dynamic
	Tokens  int
	Budget  int
	Label   string // "cap", a share like "25%", or "rest"
	Percent int
	Status  string
	// Tone colours the status: "bad" when something was left out, "warn"
	// when the section's last piece was only cut short.
	Tone string
}

type htmlNote struct {
	Section string
	Text    string
}

// htmlBuilder lays a Result out as the page: the prompt by step, the trace
// of the entries in it, the entries left out, the budget chart.
type htmlBuilder struct {
	r       *render.Result
	opts    HTMLOptions
	pg      *htmlPage
	entries map[string]*schema.Entry       // the first entry with each id, as Result.Entry finds it
	byID    map[string]render.ActivatedOut // entries in the prompt
	first   map[string]string              // source → anchor of the first message it is in
}

func buildHTMLPage(r *render.Result) *htmlPage { return buildHTMLPageWith(r, HTMLOptions{}) }

func buildHTMLPageWith(r *render.Result, opts HTMLOptions) *htmlPage {
	b := &htmlBuilder{r: r, opts: opts, entries: map[string]*schema.Entry{}, byID: map[string]render.ActivatedOut{}, first: map[string]string{},
		pg: &htmlPage{Name: "lorebook", NMessages: len(r.Messages), Report: r.Report, Warnings: r.Warnings}}
	if r.Book != nil && r.Book.Manifest.Name != "" {
		b.pg.Name = r.Book.Manifest.Name
	}
	if r.Book != nil {
		for _, e := range r.Book.Entries {
			if e != nil {
				if _, ok := b.entries[e.ID]; !ok {
					b.entries[e.ID] = e
				}
			}
		}
	}
	for _, a := range r.Activated {
		b.byID[a.ID] = a
	}
	// Where each entry and transcript message first appears in the prompt,
	// for the links between the prompt and the trace.
	for i, m := range r.Messages {
		for _, s := range m.Sources {
			if _, ok := b.first[s]; !ok {
				b.first[s] = messageAnchor(i)
			}
		}
	}
	b.steps()
	for _, a := range r.Activated {
		b.pg.Activated = append(b.pg.Activated, b.traceRow(a))
	}
	b.leftOut()
	b.pg.LeftOutRows = leftOutRows(b.pg.LeftOut)
	if r.Report != nil {
		b.pg.Chart = buildHTMLChart(r.Report)
	}
	return b.pg
}

// steps groups the prompt's messages under their assembly steps, with the
// cache breakpoint between steps 4 and 6.
func (b *htmlBuilder) steps() {
	r, pg := b.r, b.pg
	step := 0
	told := map[string]bool{}
	for i, m := range r.Messages {
		if m.Step != step || len(pg.Steps) == 0 {
			if step < render.StepBreakpoint && m.Step > render.StepBreakpoint && r.Breakpoint >= 0 {
				pg.Steps = append(pg.Steps, htmlStep{Num: render.StepBreakpoint, Title: stepTitles[render.StepBreakpoint], Breakpoint: true})
			}
			step = m.Step
			st := htmlStep{Num: step, Title: stepTitles[step]}
			if st.Title == "" {
				st.Title = "step " + strconv.Itoa(step)
			}
			if step == render.StepHistory {
				if n := firstMessage(r.Messages); n > 0 {
					st.Note = fmt.Sprintf("%s left out by the budget", olderMessages(n))
				}
			}
			pg.Steps = append(pg.Steps, st)
		}
		role := m.Role
		if m.Name != "" {
			role += " (" + m.Name + ")"
		}
		hm := htmlMessage{Anchor: messageAnchor(i), Role: role, Class: roleClass(m.Role),
			Section: m.Section, Content: m.Content, Cut: m.Cut}
		var why []string
		for _, s := range m.Sources {
			l := htmlLink{Text: s}
			if a, ok := b.byID[s]; ok {
				l.Href = "#" + entryAnchor(s)
				if !told[s] {
					why = append(why, describeTrigger(a))
					told[s] = true
				}
			}
			hm.Sources = append(hm.Sources, l)
		}
		hm.Why = strings.Join(why, "; ")
		cur := &pg.Steps[len(pg.Steps)-1]
		cur.Messages = append(cur.Messages, hm)
	}
}

// traceRow is one entry in the prompt: where, and what brought it in.
func (b *htmlBuilder) traceRow(a render.ActivatedOut) htmlTraceRow {
	row := htmlTraceRow{Anchor: entryAnchor(a.ID), ID: a.ID, Prompt: "#" + b.first[a.ID],
		Step: a.Step, StepTitle: stepTitles[a.Step], Keyword: a.Trigger.Keyword, Recursion: a.Recursion}
	if b.first[a.ID] == "" {
		row.Prompt = ""
	}
	if e := b.entries[a.ID]; e != nil {
		row.Name = e.Name
		row.Pos = e.Pos.String()
	}
	if a.Depth != nil {
		row.Depth = strconv.Itoa(*a.Depth)
	}
	switch {
	case a.Kind == "greeting":
		row.Kind = "greeting"
	case a.Kind == "constant":
		row.Kind = "constant"
	case a.Trigger.Keyword == "":
		row.Kind = "always sent"
	}
	row.In = htmlLink{Text: a.Trigger.In}
	if row.In.Text == "" {
		row.In.Text = "always"
	}
	if id, ok := strings.CutPrefix(a.Trigger.In, "entry:"); ok {
		if _, in := b.byID[id]; in {
			row.In.Href = "#" + entryAnchor(id)
		}
	} else if anchor := b.first[a.Trigger.In]; anchor != "" {
		row.In.Href = "#" + anchor
	}
	return row
}

// leftOut lists the entries not in the prompt, by id, with their reasons.
func (b *htmlBuilder) leftOut() {
	if b.r.Book == nil {
		return
	}
	var ids []string
	for id := range b.entries {
		if _, ok := b.byID[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	b.pg.LeftOutCount = len(ids)
	for _, id := range ids {
		e := b.entries[id]
		if f := b.opts.LeftOutFilter; f != nil && !f(e) || b.opts.LeftOutLimit > 0 && len(b.pg.LeftOut) == b.opts.LeftOutLimit {
			b.pg.LeftOutHidden++
			continue
		}
		lo := htmlLeftOut{Anchor: entryAnchor(id), ID: id, Name: e.Name, Section: e.Section, Pos: e.Pos.String()}
		if x := b.r.Explanations()[id]; x != nil {
			lo.Reasons = x.Texts()
		}
		b.pg.LeftOut = append(b.pg.LeftOut, lo)
	}
}

func buildHTMLChart(rep *render.Report) *htmlChart {
	c := &htmlChart{Markers: rep.Markers, Total: rep.Total, Available: rep.Available,
		RequiredCap: rep.RequiredCap, CapPercent: int(rep.CapShare*100 + 0.5), RequiredOver: requiredOver(rep),
		Remainder: rep.Remainder, Largest: rep.Largest, ContextTokens: rep.ContextTokens, Reserve: rep.Reserve}
	for _, s := range rep.Sections {
		b := htmlBar{Name: s.Name, Class: "required", Tokens: s.Tokens, Budget: s.Budget, Label: "cap",
			Percent: barPercent(s.Tokens, s.Budget)}
		if s.Class == "dynamic" {
			b.Class, b.Label = "dynamic", "rest"
			if s.Share > 0 {
				b.Label = fmt.Sprintf("%d%%", int(s.Share*100+0.5))
			}
		}
		switch {
		case s.Cut && len(s.Dropped) > 0:
			b.Status, b.Tone = fmt.Sprintf("cut, %d left out", len(s.Dropped)), "bad"
		case s.Cut:
			b.Status, b.Tone = "cut", "warn"
		case len(s.Dropped) > 0:
			b.Status, b.Tone = fmt.Sprintf("%d left out", len(s.Dropped)), "bad"
		}
		c.Sections = append(c.Sections, b)
		for _, n := range groupNotes(s.Notes) {
			c.Notes = append(c.Notes, htmlNote{Section: s.Name, Text: n})
		}
	}
	c.Required = htmlBar{Name: "Required", Class: "required", Tokens: rep.RequiredUsed, Budget: rep.RequiredCap,
		Percent: barPercent(rep.RequiredUsed, rep.RequiredCap)}

	// The whole context window: Required, Dynamic, free, reserve. Widths are
	// floors of the context's percentages; the free part takes what rounding
	// left, so the bar always sums to exactly 100.
	if ctx := rep.ContextTokens; ctx > 0 {
		dynamic := rep.Total - rep.RequiredUsed
		free := max(rep.Available-rep.Total, 0)
		parts := []htmlSegment{
			{Class: "required", Label: "Required", Tokens: rep.RequiredUsed},
			{Class: "dynamic", Label: "Dynamic", Tokens: dynamic},
			{Class: "free", Label: "free", Tokens: free},
			{Class: "reserve", Label: "response reserve", Tokens: rep.Reserve},
		}
		sum := 0
		for i := range parts {
			if i == 2 {
				continue
			}
			parts[i].Percent = min(max(parts[i].Tokens, 0)*100/ctx, 100-sum)
			sum += parts[i].Percent
		}
		parts[2].Percent = 100 - sum
		c.Stack = parts
	}
	return c
}

// barPercent is used/budget as a whole percentage for a bar's width: full past
// the budget, and at least 1 when anything is used so a small section shows.
func barPercent(used, budget int) int {
	if used <= 0 {
		return 0
	}
	if budget <= 0 {
		return 100
	}
	return min(max(used*100/budget, 1), 100)
}

func roleClass(role string) string {
	switch role {
	case "system", "user", "assistant":
		return role
	}
	return "other"
}

func messageAnchor(i int) string { return "m" + strconv.Itoa(i) }

// entryAnchor is the element id of an entry's trace row. Entry ids may hold
// any character, and an id attribute and a #fragment escape differently, so
// everything outside [A-Za-z0-9-] is spelled as _hex_; "_" is escaped too, so
// two different ids never share an anchor.
func entryAnchor(id string) string {
	var b strings.Builder
	b.WriteString("e-")
	for _, r := range id {
		if r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, "_%x_", r)
	}
	return b.String()
}

// htmlPageSource is the page (html.tmpl). The CSS follows the reader's light
// or dark scheme; print and narrow screens get the same single column. Every
// <pre> opens with a newline because HTML drops the first newline after
// <pre>: a message that starts with a blank line keeps it.
//
//go:embed html.tmpl
var htmlPageSource string

var htmlPageTemplate = template.Must(template.New("page").Parse(htmlPageSource))
