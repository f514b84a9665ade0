package output

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/render"
)

// Everything a text writer prints from the book or the chat goes through
// line (a value on one line) or diag.PrintableText (content): control
// characters are escaped, so a name cannot clear the screen or start a line.
var line = diag.Printable

// stepTitles label the steps of SPEC §3 in the text output.
var stepTitles = map[int]string{
	render.StepSystemPresets: "system presets",
	render.StepPersona:       "persona",
	render.StepFormat:        "format",
	render.StepExamples:      "examples",
	render.StepBreakpoint:    "cache breakpoint: everything above is the same every turn",
	render.StepTriggered:     "triggered entries",
	render.StepStartChat:     "start of the chat",
	render.StepSummary:       "summary",
	render.StepMemory:        "memory",
	render.StepHistory:       "chat history",
	render.StepPending:       "pending effects",
	render.StepState:         "state",
	render.StepPostHistory:   "post-history",
}

// ruleWidth is the width of the step rules, in columns.
const ruleWidth = 72

// textOutput prints the prompt for a person: a rule for each step, then each
// message with its role, where it came from and why it is there, and its
// content indented under it.
type textOutput struct{ o OutputOptions }

type painter bool

func (p painter) paint(code, s string) string {
	if !p || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (textOutput) stepRule(p painter, step int) string {
	label := "── " + strconv.Itoa(step) + " · " + stepTitles[step] + " "
	n := ruleWidth - len([]rune(label))
	if n < 3 {
		n = 3
	}
	return p.paint("1;36", label+strings.Repeat("─", n))
}

func (t textOutput) Write(w io.Writer, r *render.Result) error {
	p := painter(t.o.Color)
	var b strings.Builder
	byID := map[string]render.ActivatedOut{}
	for _, a := range r.Activated {
		byID[a.ID] = a
	}

	name := "lorebook"
	if r.Book != nil && r.Book.Manifest.Name != "" {
		name = r.Book.Manifest.Name
	}
	head := fmt.Sprintf("%s: %d messages", line(name), len(r.Messages))
	if r.Report != nil {
		head += fmt.Sprintf(", %d of %d available tokens (%s)", r.Report.Total, r.Report.Available, r.Report.Tokenizer)
		if cut := r.Report.HistoryCut.Text(); cut != "" {
			head += "; " + cut
		}
	}
	b.WriteString(p.paint("1", head) + "\n")

	step := 0
	told := map[string]bool{} // entries whose trigger was already shown
	for _, m := range r.Messages {
		if m.Step != step {
			if step < render.StepBreakpoint && m.Step > render.StepBreakpoint && r.Breakpoint >= 0 {
				b.WriteString("\n" + t.stepRule(p, render.StepBreakpoint) + "\n")
			}
			step = m.Step
			b.WriteString("\n" + t.stepRule(p, step) + "\n")
			if step == render.StepHistory {
				if n := firstMessage(r.Messages); n > 0 {
					b.WriteString(p.paint("2", fmt.Sprintf("(%s left out by the budget)", olderMessages(n))) + "\n")
				}
			}
		} else {
			b.WriteString("\n")
		}
		b.WriteString(t.header(p, m, byID, told) + "\n")
		for _, l := range strings.Split(diag.PrintableText(m.Content), "\n") {
			if l == "" {
				b.WriteString("\n")
				continue
			}
			b.WriteString("  " + l + "\n")
		}
		if m.Cut {
			b.WriteString("  " + p.paint("33", "[… cut here to fit the budget]") + "\n")
		}
	}

	if out := t.leftOut(r, byID); out != "" {
		b.WriteString("\n" + p.paint("2", out) + "\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if t.o.Report && r.Report != nil {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		return WriteReport(w, r.Report, t.o.Color)
	}
	return nil
}

// header is "role (name) · source — why", e.g.
// "system · sleeping-stag — keyword "tavern" in message:3, depth 2".
func (textOutput) header(p painter, m render.Message, byID map[string]render.ActivatedOut, told map[string]bool) string {
	roleColour := map[string]string{"system": "33", "user": "32", "assistant": "35"}[m.Role]
	h := p.paint("1;"+roleColour, m.Role)
	if m.Name != "" {
		h += " (" + line(m.Name) + ")"
	}
	if len(m.Sources) > 0 {
		h += " · " + p.paint("1", line(strings.Join(m.Sources, ", ")))
	}
	var why []string
	for _, s := range m.Sources {
		if a, ok := byID[s]; ok && !told[s] {
			why = append(why, describeTrigger(a))
			told[s] = true
		}
	}
	if m.Cut {
		why = append(why, "cut")
	}
	if len(why) > 0 {
		h += p.paint("2", " — "+strings.Join(why, "; "))
	}
	return h
}

// firstMessage is the transcript index of the oldest message in the prompt,
// -1 when none is.
func firstMessage(msgs []render.Message) int {
	for _, m := range msgs {
		for _, s := range m.Sources {
			if n, ok := strings.CutPrefix(s, "message:"); ok {
				if i, err := strconv.Atoi(n); err == nil {
					return i
				}
			}
		}
	}
	return -1
}

func olderMessages(n int) string {
	switch n {
	case 1:
		return "message:0"
	case 2:
		return "message:0 and message:1"
	}
	return fmt.Sprintf("message:0 … message:%d", n-1)
}

// describeTrigger says in words what brought an entry in.
func describeTrigger(a render.ActivatedOut) string {
	var s string
	switch {
	case a.Kind == "greeting":
		s = "greeting: opens the chat"
	case a.Kind == "constant":
		s = "constant"
	case a.Kind == "card":
		s = "the character card's " + line(a.Position)
	case a.Trigger.In == "always" || a.Trigger.In == "":
		s = "always sent"
	case a.Trigger.In == "sticky":
		s = "sticky: kept in by an earlier generation"
	case a.Trigger.In == "conditions":
		s = "its conditions hold (no keyword needed)"
	case strings.HasPrefix(a.Trigger.In, "entry:"):
		s = fmt.Sprintf("keyword \"%s\" in %s (recursion %d)", line(a.Trigger.Keyword), line(a.Trigger.In), a.Recursion)
	default:
		s = fmt.Sprintf("keyword \"%s\" in %s", line(a.Trigger.Keyword), line(a.Trigger.In))
	}
	if a.Depth != nil {
		s += ", depth " + strconv.Itoa(*a.Depth)
	}
	return s
}

// leftOut names the entries that are not in the prompt and points at --explain.
func (textOutput) leftOut(r *render.Result, in map[string]render.ActivatedOut) string {
	if r.Book == nil {
		return ""
	}
	var ids []string
	for _, e := range r.Book.Entries {
		if _, ok := in[e.ID]; !ok {
			ids = append(ids, e.ID)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	sort.Strings(ids)
	ids = dedupe(ids)
	const show = 12
	list := line(strings.Join(ids[:min(len(ids), show)], ", "))
	if len(ids) > show {
		list += fmt.Sprintf(" and %d more", len(ids)-show)
	}
	noun := "entries"
	if len(ids) == 1 {
		noun = "entry"
	}
	return fmt.Sprintf("Not in the prompt: %d %s (%s).\n`lore render --explain ID` says why.", len(ids), noun, list)
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
