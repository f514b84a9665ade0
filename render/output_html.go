package render

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/lorekit/lore/schema"
)

// htmlOutput is `render --format html` (SPEC §7): one self-contained page with
// the prompt grouped by assembly step, the trace of every entry, and a token
// chart of the budget. It loads nothing from the network and needs no script:
// steps fold with <details>, bar widths are integer percentages computed here.
// Every piece of lorebook or chat text goes through html/template, so a
// `<script>` in an entry is shown, never run.
type htmlOutput struct{}

func (htmlOutput) Write(w io.Writer, r *Result) error {
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
	Report    *Report
	Warnings  []string
	Steps     []htmlStep
	Activated []htmlTraceRow
	LeftOut   []htmlLeftOut
	Chart     *htmlChart
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
	Largest       []EntrySize
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

func buildHTMLPage(r *Result) *htmlPage {
	pg := &htmlPage{Name: "lorebook", NMessages: len(r.Messages), Report: r.Report, Warnings: r.Warnings}
	if r.Book != nil && r.Book.Manifest.Name != "" {
		pg.Name = r.Book.Manifest.Name
	}
	entries := map[string]*schema.Entry{} // the first entry with each id, as Result.entry finds it
	if r.Book != nil {
		for _, e := range r.Book.Entries {
			if e != nil {
				if _, ok := entries[e.ID]; !ok {
					entries[e.ID] = e
				}
			}
		}
	}
	byID := map[string]ActivatedOut{}
	for _, a := range r.Activated {
		byID[a.ID] = a
	}

	// Where each entry and transcript message first appears in the prompt,
	// for the links between the prompt and the trace.
	firstMsg := map[string]string{}
	for i, m := range r.Messages {
		for _, s := range m.Sources {
			if _, ok := firstMsg[s]; !ok {
				firstMsg[s] = messageAnchor(i)
			}
		}
	}

	step := 0
	told := map[string]bool{}
	for i, m := range r.Messages {
		if m.Step != step || len(pg.Steps) == 0 {
			if step < StepBreakpoint && m.Step > StepBreakpoint && r.Breakpoint >= 0 {
				pg.Steps = append(pg.Steps, htmlStep{Num: StepBreakpoint, Title: stepTitles[StepBreakpoint], Breakpoint: true})
			}
			step = m.Step
			st := htmlStep{Num: step, Title: stepTitles[step]}
			if st.Title == "" {
				st.Title = "step " + strconv.Itoa(step)
			}
			if step == StepHistory {
				if n := firstMessage(r.Messages); n > 0 {
					st.Note = fmt.Sprintf("%s left out by the budget", olderMessages(n))
				}
			}
			pg.Steps = append(pg.Steps, st)
		}
		hm := htmlMessage{Anchor: messageAnchor(i), Role: m.Role, Class: roleClass(m.Role),
			Section: m.Section, Content: m.Content, Cut: m.Cut}
		var why []string
		for _, s := range m.Sources {
			l := htmlLink{Text: s}
			if a, ok := byID[s]; ok {
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

	for _, a := range r.Activated {
		row := htmlTraceRow{Anchor: entryAnchor(a.ID), ID: a.ID, Prompt: "#" + firstMsg[a.ID],
			Step: a.Step, StepTitle: stepTitles[a.Step], Keyword: a.Trigger.Keyword, Recursion: a.Recursion}
		if firstMsg[a.ID] == "" {
			row.Prompt = ""
		}
		if e := entries[a.ID]; e != nil {
			row.Name = e.Name
			row.Pos = e.Pos.String()
		}
		if a.Depth != nil {
			row.Depth = strconv.Itoa(*a.Depth)
		}
		switch {
		case a.kind == "greeting":
			row.Kind = "greeting"
		case a.kind == "constant":
			row.Kind = "constant"
		case a.Trigger.Keyword == "":
			row.Kind = "always sent"
		}
		row.In = htmlLink{Text: a.Trigger.In}
		if row.In.Text == "" {
			row.In.Text = "always"
		}
		if id, ok := strings.CutPrefix(a.Trigger.In, "entry:"); ok {
			if _, in := byID[id]; in {
				row.In.Href = "#" + entryAnchor(id)
			}
		} else if anchor := firstMsg[a.Trigger.In]; anchor != "" {
			row.In.Href = "#" + anchor
		}
		pg.Activated = append(pg.Activated, row)
	}

	if r.Book != nil {
		var ids []string
		for id := range entries {
			if _, ok := byID[id]; !ok {
				ids = append(ids, id)
			}
		}
		sort.Strings(ids)
		for _, id := range ids {
			e := entries[id]
			lo := htmlLeftOut{Anchor: entryAnchor(id), ID: id, Name: e.Name, Section: e.Section, Pos: e.Pos.String()}
			if x := r.Explain[id]; x != nil {
				lo.Reasons = x.Reasons
			}
			pg.LeftOut = append(pg.LeftOut, lo)
		}
	}

	if r.Report != nil {
		pg.Chart = buildHTMLChart(r.Report)
	}
	return pg
}

func buildHTMLChart(rep *Report) *htmlChart {
	c := &htmlChart{Markers: rep.Markers, Total: rep.Total, Available: rep.Available,
		RequiredCap: rep.RequiredCap, CapPercent: int(rep.CapShare*100 + 0.5), RequiredOver: rep.requiredOver(),
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

var htmlPageTemplate = template.Must(template.New("page").Parse(htmlPageSource))

// htmlPageSource is the page. The CSS follows the reader's light or dark
// scheme; print and narrow screens get the same single column. Every <pre>
// opens with a newline because HTML drops the first newline after <pre>: a
// message that starts with a blank line keeps it.
const htmlPageSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="lore render --format html">
<title>{{.Name}} · lore render</title>
<style>
:root {
  color-scheme: light dark;
  --bg: #f7f6f2; --fg: #1f2023; --muted: #6a6b70; --line: #dddad2; --card: #ffffff; --code: #fbfaf7;
  --system: #b7791f; --user: #2f855a; --assistant: #7c4dcc; --other: #6a6b70;
  --required: #3b6fd8; --dynamic: #17967f; --free: #e7e4dc; --reserve: #c9c5bb;
  --warn: #b45309; --bad: #c53030; --link: #2b5fc7; --mark: #fff3c4;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15161a; --fg: #e4e4e7; --muted: #9b9ca3; --line: #34363d; --card: #1d1f24; --code: #191b1f;
    --system: #e3a948; --user: #5cc28a; --assistant: #b594f5; --other: #9b9ca3;
    --required: #6e9bff; --dynamic: #38c6ab; --free: #2c2e35; --reserve: #4a4d56;
    --warn: #f3ad5b; --bad: #fc8181; --link: #8fb3ff; --mark: #3d3520;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK JP", sans-serif; }
main, header.top { max-width: 72rem; margin: 0 auto; padding: 0 1.25rem; }
header.top { padding-top: 1.5rem; }
h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
h2 { margin: 2.5rem 0 .75rem; font-size: 1.3rem; border-bottom: 2px solid var(--line); padding-bottom: .3rem; }
h3 { margin: 1.5rem 0 .5rem; font-size: 1.05rem; }
a { color: var(--link); }
.meta { margin: 0; color: var(--muted); }
.meta b { color: var(--fg); }
nav { margin: .75rem 0 0; display: flex; gap: 1rem; }
nav a { text-decoration: none; font-weight: 600; }
.warning { color: var(--warn); margin: .5rem 0 0; }
.muted, .pos { color: var(--muted); }
.pos { font-size: .8rem; }
details.step { margin: .6rem 0; border: 1px solid var(--line); border-radius: 8px; background: var(--card); }
details.step > summary { cursor: pointer; padding: .45rem .8rem; font-weight: 600; list-style-position: inside; }
details.step[open] > summary { border-bottom: 1px solid var(--line); }
summary .num { display: inline-block; min-width: 1.6rem; text-align: center; margin-right: .3rem; border-radius: 4px; background: var(--line); font-variant-numeric: tabular-nums; }
summary .count { color: var(--muted); font-weight: 400; font-size: .85rem; margin-left: .4rem; }
.step .note { margin: .5rem .8rem 0; color: var(--warn); font-size: .9rem; }
.msg { margin: .6rem .8rem; padding: .1rem 0 .1rem .75rem; border-left: 4px solid var(--other); }
.msg.system { border-left-color: var(--system); }
.msg.user { border-left-color: var(--user); }
.msg.assistant { border-left-color: var(--assistant); }
.msg:target { background: var(--mark); }
.mhead { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2rem .6rem; font-size: .85rem; }
.role { font-weight: 700; text-transform: uppercase; letter-spacing: .04em; font-size: .75rem; color: var(--other); }
.system .role { color: var(--system); }
.user .role { color: var(--user); }
.assistant .role { color: var(--assistant); }
.src { font-weight: 600; }
.why { color: var(--muted); }
.sec { margin-left: auto; color: var(--muted); font-size: .75rem; border: 1px solid var(--line); border-radius: 999px; padding: 0 .5rem; }
pre { margin: .3rem 0 .2rem; padding: .5rem .7rem; background: var(--code); border: 1px solid var(--line); border-radius: 6px;
  white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono CJK JP", monospace; }
.cut { margin: 0; color: var(--warn); font-size: .85rem; font-weight: 600; }
.breakpoint { margin: 1rem 0; display: flex; align-items: center; gap: .75rem; color: var(--required); font-weight: 600; font-size: .9rem; }
.breakpoint::before, .breakpoint::after { content: ""; flex: 1; border-top: 2px dashed var(--required); }
table { border-collapse: collapse; width: 100%; font-size: .88rem; background: var(--card); }
th, td { text-align: left; vertical-align: top; padding: .35rem .6rem; border-bottom: 1px solid var(--line); }
th { font-weight: 600; color: var(--muted); font-size: .78rem; text-transform: uppercase; letter-spacing: .03em; }
.nowrap { white-space: nowrap; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:target { background: var(--mark); }
code { font: 12.5px ui-monospace, Menlo, Consolas, monospace; }
td ul { margin: 0; padding-left: 1.1rem; }
.stack { display: flex; height: 1.6rem; border-radius: 6px; overflow: hidden; border: 1px solid var(--line); }
.stack span, .fill.required, .fill.dynamic, .swatch { background: var(--required); }
.stack .dynamic, .fill.dynamic, .swatch.dynamic { background: var(--dynamic); }
.stack .free, .swatch.free { background: var(--free); }
.stack .reserve, .swatch.reserve { background: repeating-linear-gradient(135deg, var(--reserve) 0 6px, var(--free) 6px 12px); }
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; list-style: none; padding: 0; margin: .5rem 0 1rem; font-size: .85rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .35rem; vertical-align: -1px; }
.bar { position: relative; width: 100%; min-width: 8rem; height: .9rem; background: var(--free); border-radius: 3px; overflow: hidden; margin-top: .2rem; }
.fill { display: block; height: 100%; }
.bad { color: var(--bad); font-weight: 600; }
.warn { color: var(--warn); font-weight: 600; }
.status { white-space: nowrap; }
td.class-required { color: var(--required); }
td.class-dynamic { color: var(--dynamic); }
.verdict { margin: .75rem 0 .25rem; }
.verdict .bar { max-width: 40rem; height: 1.1rem; }
footer { max-width: 72rem; margin: 3rem auto 2rem; padding: 0 1.25rem; color: var(--muted); font-size: .8rem; }
</style>
</head>
<body>
<header class="top">
<h1>{{.Name}}</h1>
<p class="meta">{{.NMessages}} messages{{with .Report}} · <b>{{.Total}}</b> of <b>{{.Available}}</b> available tokens · {{.Tokenizer}} · context {{.ContextTokens}} − reserve {{.Reserve}}{{end}}</p>
<nav><a href="#prompt">Prompt</a><a href="#trace">Trace</a><a href="#tokens">Tokens</a></nav>
{{- range .Warnings}}
<p class="warning">warning: {{.}}</p>
{{- end}}
</header>
<main>
<section id="prompt">
<h2>Prompt</h2>
{{- range .Steps}}
{{- if .Breakpoint}}
<div class="breakpoint" id="cache-breakpoint">{{.Num}} · {{.Title}}</div>
{{- else}}
<details class="step" id="step-{{.Num}}" open>
<summary><span class="num">{{.Num}}</span>{{.Title}}<span class="count">{{len .Messages}} {{if eq (len .Messages) 1}}message{{else}}messages{{end}}</span></summary>
{{- with .Note}}
<p class="note">{{.}}</p>
{{- end}}
{{- range .Messages}}
<article class="msg {{.Class}}" id="{{.Anchor}}">
<div class="mhead"><span class="role">{{.Role}}</span>
{{- range .Sources}}<span class="src">{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</span>{{end}}
{{- with .Why}}<span class="why">{{.}}</span>{{end}}
{{- with .Section}}<span class="sec">{{.}}</span>{{end}}</div>
<pre>
{{.Content}}</pre>
{{- if .Cut}}
<p class="cut">[… cut here to fit the budget]</p>
{{- end}}
</article>
{{- end}}
</details>
{{- end}}
{{- else}}
<p class="muted">The prompt is empty.</p>
{{- end}}
</section>

<section id="trace">
<h2>Trace</h2>
<h3>In the prompt ({{len .Activated}})</h3>
{{- if .Activated}}
<table>
<thead><tr><th>entry</th><th>step</th><th class="n">depth</th><th>trigger</th><th>where</th><th class="n">recursion</th></tr></thead>
<tbody>
{{- range .Activated}}
<tr id="{{.Anchor}}"><td>{{if .Prompt}}<a href="{{.Prompt}}"><b>{{.ID}}</b></a>{{else}}<b>{{.ID}}</b>{{end}}{{if and .Name (ne .Name .ID)}} <span class="muted">{{.Name}}</span>{{end}}{{if and .Pos (ne .Pos "-")}}<div class="pos">{{.Pos}}</div>{{end}}</td><td>{{.Step}} · {{.StepTitle}}</td><td class="n">{{if .Depth}}{{.Depth}}{{else}}<span class="muted">–</span>{{end}}</td><td>{{if .Keyword}}<code>{{.Keyword}}</code>{{else}}<span class="muted">{{.Kind}}</span>{{end}}</td><td>{{if .In.Href}}<a href="{{.In.Href}}">{{.In.Text}}</a>{{else}}{{.In.Text}}{{end}}</td><td class="n">{{.Recursion}}</td></tr>
{{- end}}
</tbody>
</table>
{{- else}}
<p class="muted">No entry is in the prompt.</p>
{{- end}}
<h3>Not in the prompt ({{len .LeftOut}})</h3>
{{- if .LeftOut}}
<p class="muted">Every reason activation and the budget gave, in order, as <code>lore render --explain ID</code> prints them.</p>
<table>
<thead><tr><th>entry</th><th>section</th><th>why</th></tr></thead>
<tbody>
{{- range .LeftOut}}
<tr id="{{.Anchor}}"><td><b>{{.ID}}</b>{{if and .Name (ne .Name .ID)}} <span class="muted">{{.Name}}</span>{{end}}{{if and .Pos (ne .Pos "-")}}<div class="pos">{{.Pos}}</div>{{end}}</td><td class="nowrap">{{.Section}}</td><td>{{if .Reasons}}<ul>{{range .Reasons}}<li>{{.}}</li>{{end}}</ul>{{else}}<span class="muted">no reason recorded</span>{{end}}</td></tr>
{{- end}}
</tbody>
</table>
{{- else}}
<p class="muted">Every entry is in the prompt.</p>
{{- end}}
</section>

<section id="tokens">
<h2>Tokens</h2>
{{- with .Chart}}
<p>{{.ContextTokens}} context − {{.Reserve}} reserve = <b>{{.Available}}</b> available; the prompt uses <b>{{.Total}}</b>.</p>
{{- if .Stack}}
<div class="stack" role="img" aria-label="{{range $i, $s := .Stack}}{{if $i}}, {{end}}{{$s.Label}} {{$s.Tokens}} tokens{{end}}">
{{- range .Stack}}<span class="{{.Class}}" style="width: {{.Percent}}%" title="{{.Label}}: {{.Tokens}} tokens"></span>{{end -}}
</div>
<ul class="legend">
{{- range .Stack}}<li><span class="swatch {{.Class}}"></span>{{.Label}} {{.Tokens}}</li>{{end -}}
</ul>
{{- end}}
<table class="bars">
<thead><tr><th>section</th><th>class</th><th class="n">tokens</th><th class="n">budget</th><th style="width: 40%">used of budget</th><th>status</th></tr></thead>
<tbody>
{{- range .Sections}}
<tr><td><b>{{.Name}}</b></td><td class="class-{{.Class}}">{{.Class}}</td><td class="n">{{.Tokens}}</td><td class="n">{{.Budget}} <span class="muted">{{.Label}}</span></td><td><div class="bar" title="{{.Percent}}%"><span class="fill {{.Class}}" style="width: {{.Percent}}%"></span></div></td><td class="status {{.Tone}}">{{.Status}}</td></tr>
{{- end}}
{{- if .Markers}}
<tr><td class="muted">(markers)</td><td class="class-required">required</td><td class="n">{{.Markers}}</td><td></td><td></td><td></td></tr>
{{- end}}
<tr><td><b>total</b></td><td></td><td class="n"><b>{{.Total}}</b></td><td class="n">{{.Available}}</td><td></td><td></td></tr>
</tbody>
</table>
<div class="verdict">
<p>Required: <b>{{.Required.Tokens}}</b> tokens, {{.Required.Percent}}% of the {{.RequiredCap}}-token cap ({{.CapPercent}}% of {{.Available}} available):
{{if .RequiredOver}}<span class="bad">over the cap: lower-priority pieces were cut or left out</span>{{else}}under the cap, all of Required is whole{{end}}</p>
<div class="bar" title="{{.Required.Percent}}%"><span class="fill required" style="width: {{.Required.Percent}}%"></span></div>
<p>Dynamic R = {{.Available}} − {{.Required.Tokens}} = <b>{{.Remainder}}</b> tokens for cards, history and memory.</p>
</div>
<h3>Cut or left out</h3>
{{- if .Notes}}
<table>
<thead><tr><th>section</th><th>what and why</th></tr></thead>
<tbody>
{{- range .Notes}}
<tr><td>{{.Section}}</td><td>{{.Text}}</td></tr>
{{- end}}
</tbody>
</table>
{{- else}}
<p class="muted">Nothing was cut or left out for lack of room.</p>
{{- end}}
{{- if .Largest}}
<h3>Largest entries</h3>
<table>
<thead><tr><th>entry</th><th>section</th><th class="n">tokens</th><th>status</th></tr></thead>
<tbody>
{{- range .Largest}}
<tr><td>{{.Key}}</td><td>{{.Section}}</td><td class="n">{{.Tokens}}</td><td{{if eq .Status "cut"}} class="warn"{{else if ne .Status "in"}} class="bad"{{end}}>{{.Status}}</td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
{{- else}}
<p class="muted">No budget report.</p>
{{- end}}
</section>
</main>
<footer>Rendered by <code>lore render --format html</code>. Entry ids link to their trace row; trace rows link back to the prompt.</footer>
</body>
</html>
`
