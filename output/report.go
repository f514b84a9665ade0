package output

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lorekit/lore/render"
)

// WriteReport prints the report as a table a person reads at a glance: each
// section's tokens against its cap or share with a bar, the Required total
// against the cap, what was cut or left out and why, and the largest entries.
// It returns the first write error.
func WriteReport(out io.Writer, r *render.Report, color bool) error {
	ew := &errWriter{w: out}
	w := &trimWriter{w: ew}
	paint := func(code, s string) string {
		if !color || s == "" {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	red := func(s string) string { return paint("31", s) }
	yellow := func(s string) string { return paint("33", s) }
	bold := func(s string) string { return paint("1", s) }
	faint := func(s string) string { return paint("2", s) }

	fmt.Fprintf(w, "%s %s, context %d − reserve %d = %d available\n\n",
		bold("Token budget"), r.Tokenizer, r.ContextTokens, r.Reserve, r.Available)
	fmt.Fprintf(w, "%-16s %-9s %7s %7s %-6s %-20s  %s\n", "section", "class", "tokens", "budget", "", "", "")
	for _, s := range r.Sections {
		label := "cap"
		if s.Class == "dynamic" {
			label = "rest"
			if s.Share > 0 {
				label = fmt.Sprintf("%d%%", int(s.Share*100+0.5))
			}
		}
		status := ""
		switch {
		case s.Cut && len(s.Dropped) > 0:
			status = red(fmt.Sprintf("cut, %d left out", len(s.Dropped)))
		case s.Cut:
			status = yellow("cut")
		case len(s.Dropped) > 0:
			status = red(fmt.Sprintf("%d left out", len(s.Dropped)))
		}
		fmt.Fprintf(w, "%-16s %-9s %7d %7d %s %s  %s\n", s.Name, s.Class, s.Tokens, s.Budget,
			faint(fmt.Sprintf("%-6s", label)), bar(s.Tokens, s.Budget, 20, color), status)
	}
	if r.Markers > 0 {
		fmt.Fprintf(w, "%-16s %-9s %7d\n", "(markers)", "required", r.Markers)
	}
	fmt.Fprintf(w, "%-16s %-9s %7d %7d\n\n", "total", "", r.Total, r.Available)

	if hasRequired(r) {
		pct := 0
		if r.RequiredCap > 0 {
			pct = r.RequiredUsed * 100 / r.RequiredCap
		}
		verdict := "under the cap, all of Required is whole"
		if requiredOver(r) {
			verdict = red("over the cap: lower-priority pieces were cut or left out")
		}
		fmt.Fprintf(w, "Required: %d tokens, %d%% of the %d-token cap (%d%% of %d available): %s\n",
			r.RequiredUsed, pct, r.RequiredCap, int(r.CapShare*100+0.5), r.Available, verdict)
		fmt.Fprintf(w, "Dynamic R = %d − %d = %d tokens for cards, history and memory\n", r.Available, r.RequiredUsed, r.Remainder)
	}

	var notes []string
	if cut := r.HistoryCut.Text(); cut != "" {
		notes = append(notes, fmt.Sprintf("  %-16s %s", "history", cut))
	}
	for _, s := range r.Sections {
		for _, n := range groupNotes(s.Notes) {
			notes = append(notes, fmt.Sprintf("  %-16s %s", s.Name, n))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "\n%s\n", bold("Cut or left out"))
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
	if len(r.Largest) > 0 {
		fmt.Fprintf(w, "\n%s\n", bold("Largest entries"))
		keyW, secW := 24, 16 // wider for longer ids, so the columns stay put
		for _, e := range r.Largest {
			keyW, secW = max(keyW, Width(line(e.Key))), max(secW, Width(line(e.Section)))
		}
		for _, e := range r.Largest {
			st := e.Status
			switch st {
			case "cut":
				st = yellow(st)
			case "left out":
				st = red(st)
			}
			fmt.Fprintf(w, "  %s %s %7d  %s\n", Pad(line(e.Key), keyW), Pad(line(e.Section), secW), e.Tokens, st)
		}
	}
	return ew.err
}

// hasRequired says the report splits the budget into Required and Dynamic
// (lore's engine does; an engine with one lorebook budget does not).
func hasRequired(r *render.Report) bool {
	for _, s := range r.Sections {
		if s.Class == "required" {
			return true
		}
	}
	return false
}

func requiredOver(r *render.Report) bool {
	for _, s := range r.Sections {
		if s.Class == "required" && (s.Cut || len(s.Dropped) > 0) {
			return true
		}
	}
	return false
}

// groupNotes folds runs of notes with one reason into one line, so 200 old
// messages left out of history read as one line, not 200.
func groupNotes(notes []render.Note) []string {
	var out []string
	for i := 0; i < len(notes); {
		n := notes[i]
		if n.Cut {
			out = append(out, fmt.Sprintf("%s cut %d → %d tokens: %s", n.Key, n.Tokens, n.Kept, n.Why))
			i++
			continue
		}
		j, total := i, 0
		for j < len(notes) && !notes[j].Cut && notes[j].Why == n.Why {
			total += notes[j].Tokens
			j++
		}
		var keys []string
		for _, m := range notes[i:j] {
			if len(keys) == 0 || keys[len(keys)-1] != m.Key {
				keys = append(keys, m.Key)
			}
		}
		names := strings.Join(keys, ", ")
		if len(keys) > 3 {
			names = keys[0] + " … " + keys[len(keys)-1]
		}
		if j-i == 1 {
			out = append(out, fmt.Sprintf("%s (%d tokens) left out: %s", names, total, n.Why))
		} else {
			out = append(out, fmt.Sprintf("%s (%d pieces, %d tokens) left out: %s", names, j-i, total, n.Why))
		}
		i = j
	}
	return out
}

// bar draws used/budget in width cells; past the budget it is full.
func bar(used, budget, width int, color bool) string {
	if budget <= 0 {
		if used > 0 {
			return strings.Repeat("█", width)
		}
		return strings.Repeat("·", width)
	}
	fill := min(used*width/budget, width)
	if used > 0 && fill == 0 {
		fill = 1
	}
	s := strings.Repeat("█", fill) + strings.Repeat("·", width-fill)
	if color {
		return "\x1b[36m" + s[:len("█")*fill] + "\x1b[0m" + s[len("█")*fill:]
	}
	return s
}

// errWriter keeps the first write error so the table code stays linear.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	_, e.err = e.w.Write(p)
	return len(p), nil
}

// trimWriter drops the spaces that padded columns leave at the end of a line;
// WriteText writes whole lines (one Fprintf per line).
type trimWriter struct{ w io.Writer }

func (t *trimWriter) Write(p []byte) (int, error) {
	s := string(p)
	nl := strings.HasSuffix(s, "\n")
	s = strings.TrimRight(strings.TrimSuffix(s, "\n"), " ")
	if nl {
		s += "\n"
	}
	_, err := io.WriteString(t.w, s)
	return len(p), err
}

// WriteSizing prints the always-sent budget (WriteReport) followed by every
// story card's size against the cards share, largest first, flagging the
// cards that can never be included. It returns the first write error.
func WriteSizing(out io.Writer, s *render.Sizing, color bool) error {
	if err := WriteReport(out, s.Report, color); err != nil {
		return err
	}
	ew := &errWriter{w: out}
	w := &trimWriter{w: ew}
	paint := func(code, t string) string {
		if !color {
			return t
		}
		return "\x1b[" + code + "m" + t + "\x1b[0m"
	}
	what, over := "cards", "over the whole cards share: it can never be included"
	if hasRequired(s.Report) || len(s.Report.Sections) == 0 {
		fmt.Fprintf(w, "\n%s\n", paint("1", "Story cards against the cards share"))
		fmt.Fprintf(w, "Without a chat, Required is %d tokens (%d before the cap): cards may take %d tokens, the trigger scan window is %d messages\n",
			s.Report.RequiredUsed, s.RequiredTotal, s.CardsShare, s.Window)
	} else { // an engine with one lorebook budget (SillyTavern's World Info)
		what, over = "entries", "over the whole budget: it can never be included"
		fmt.Fprintf(w, "\n%s\n", paint("1", "Entries against the lorebook budget"))
		fmt.Fprintf(w, "The activated entries may take %d tokens together\n", s.CardsShare)
	}
	if len(s.Cards) == 0 {
		fmt.Fprintf(w, "  (no %s)\n", map[string]string{"cards": "story cards", "entries": "entries"}[what])
		return ew.err
	}
	cards := slices.Clone(s.Cards)
	slices.SortStableFunc(cards, func(a, b render.CardSize) int { return cmp.Compare(b.Tokens, a.Tokens) })
	nOver, idW := 0, 24
	for _, c := range cards {
		idW = max(idW, Width(line(c.Entry.ID)))
	}
	for _, c := range cards {
		note := ""
		if c.Over {
			nOver++
			note = paint("1;31", over)
		}
		fmt.Fprintf(w, "  %s %7d  %s  %s\n", Pad(line(c.Entry.ID), idW), c.Tokens, bar(c.Tokens, s.CardsShare, 20, color), note)
	}
	if nOver > 0 {
		fmt.Fprintf(w, "%d of %d %s exceed the %s\n", nOver, len(cards), what, map[string]string{"cards": "cards share", "entries": "budget"}[what])
	}
	return ew.err
}
