package output

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/lorekit/lore/render"
)

// RunFormats are the formats `lore render --runs` prints.
var RunFormats = []string{"text", "json", "html"}

// Runs counts, over renders with consecutive seeds, how often each entry was
// in the prompt (`lore render --runs N`): the question "how often does my
// 30 % entry fire?" that an engine with chance in it raises.
type Runs struct {
	Name      string
	Engine    string
	Runs      int
	FirstSeed int64
	Entries   []RunEntry // every entry of the lorebook, most often in first
}

// RunEntry is one entry's count.
type RunEntry struct {
	ID       string  `json:"id"`
	InPrompt int     `json:"inPrompt"`
	Share    float64 `json:"share"`
}

// CountRuns tallies the renders of one lorebook (entry ids in book order).
func CountRuns(ids []string, results []*render.Result, firstSeed int64) *Runs {
	counts := map[string]int{}
	for _, r := range results {
		seen := map[string]bool{}
		for _, a := range r.Activated {
			if !seen[a.ID] {
				seen[a.ID] = true
				counts[a.ID]++
			}
		}
	}
	out := &Runs{Runs: len(results), FirstSeed: firstSeed}
	if len(results) > 0 {
		out.Engine = results[0].Engine
		if b := results[0].Book; b != nil {
			out.Name = b.Manifest.Name
		}
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		e := RunEntry{ID: id, InPrompt: counts[id]}
		if out.Runs > 0 {
			e.Share = float64(e.InPrompt) / float64(out.Runs)
		}
		out.Entries = append(out.Entries, e)
	}
	sort.SliceStable(out.Entries, func(i, j int) bool { return out.Entries[i].InPrompt > out.Entries[j].InPrompt })
	return out
}

// WriteRuns prints the frequency table.
func WriteRuns(w io.Writer, format string, r *Runs, color bool) error {
	switch format {
	case "json":
		entries := r.Entries
		if entries == nil {
			entries = []RunEntry{}
		}
		return writeJSON(w, struct {
			Engine    string     `json:"engine"`
			Runs      int        `json:"runs"`
			FirstSeed int64      `json:"firstSeed"`
			Entries   []RunEntry `json:"entries"`
		}{r.Engine, r.Runs, r.FirstSeed, entries})
	case "html":
		return runsPage.Execute(w, r)
	case "text", "":
	default:
		return fmt.Errorf("--runs prints %s, not %s", strings.Join(RunFormats, ", "), format)
	}
	p := painter(color)
	var b strings.Builder
	b.WriteString(p.paint("1", fmt.Sprintf("%s: %d renders, seeds %d–%d (%s engine)", line(r.Name), r.Runs, r.FirstSeed,
		r.FirstSeed+int64(r.Runs)-1, r.Engine)) + "\n\n")
	width := len("entry")
	for _, e := range r.Entries {
		width = max(width, len([]rune(line(e.ID))))
	}
	fmt.Fprintf(&b, "%-*s %8s %7s\n", width, "entry", "in", "share")
	for _, e := range r.Entries {
		row := fmt.Sprintf("%-*s %8d %6.1f%% %s", width, line(e.ID), e.InPrompt, e.Share*100, bar(e.InPrompt, r.Runs, 20, color))
		if e.InPrompt == 0 {
			row = p.paint("2", row)
		}
		b.WriteString(row + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var runsPage = template.Must(template.New("runs").Funcs(template.FuncMap{
	"pct":  func(f float64) string { return fmt.Sprintf("%.1f", f*100) },
	"last": func(r *Runs) int64 { return r.FirstSeed + int64(r.Runs) - 1 },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="lore render --runs">
<title>{{.Name}} · how often each entry is in the prompt</title>
<style>
:root { color-scheme: light dark; }
body { margin: 1.5rem auto; max-width: 60rem; padding: 0 1.25rem; font: 15px/1.5 system-ui, sans-serif; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid #8884; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { width: 12rem; height: .8rem; background: #8883; border-radius: 3px; overflow: hidden; }
.bar span { display: block; height: 100%; background: #17967f; }
.never { color: #888; }
</style>
</head>
<body>
<h1>{{.Name}}</h1>
<p>{{.Runs}} renders with seeds {{.FirstSeed}}–{{last .}}, {{.Engine}} engine: how often each entry was in the prompt.</p>
<table>
<tr><th>entry</th><th class="n">in</th><th class="n">share</th><th></th></tr>
{{- range .Entries}}
<tr{{if eq .InPrompt 0}} class="never"{{end}}><td><code>{{.ID}}</code></td><td class="n">{{.InPrompt}}</td><td class="n">{{pct .Share}} %</td><td><div class="bar"><span style="width: {{pct .Share}}%"></span></div></td></tr>
{{- end}}
</table>
</body>
</html>
`))
