package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Report is the budget report of SPEC §7 (`report` in `render --format json`,
// `lore tokens --format json`). The JSON fields are the stable contract; the
// fields tagged "-" feed the text table only.
type Report struct {
	Tokenizer     string          `json:"tokenizer"`
	ContextTokens int             `json:"contextTokens"`
	Available     int             `json:"available"`
	RequiredCap   int             `json:"requiredCap"`
	Total         int             `json:"total"`
	Sections      []SectionReport `json:"sections"`

	// Reserve is the response reserve; CapShare the requiredCap setting (0.70).
	Reserve  int     `json:"-"`
	CapShare float64 `json:"-"`
	// RequiredUsed is what Required holds, markers included; Remainder is R,
	// what Dynamic fills; Markers the tokens of always-sent markers.
	RequiredUsed int `json:"-"`
	Remainder    int `json:"-"`
	Markers      int `json:"-"`
	// Largest are the biggest entries and blocks, by tokens before any cut.
	Largest []EntrySize `json:"-"`
}

// SectionReport is one budget section.
type SectionReport struct {
	Name    string   `json:"name"`
	Class   string   `json:"class"` // required | dynamic
	Tokens  int      `json:"tokens"`
	Budget  int      `json:"budget"`
	Cut     bool     `json:"cut"`
	Dropped []string `json:"dropped"`

	// Share is the part of R a dynamic section may take (history's includes
	// the memory share when there is no memory); Notes say what was cut or
	// left out and why, in prompt order.
	Share float64 `json:"-"`
	Notes []Note  `json:"-"`
}

// Note is one cut or left-out piece.
type Note struct {
	Key    string
	Tokens int // the piece's whole size
	Kept   int // tokens kept (a cut piece); 0 when left out
	Cut    bool
	Why    string
}

// EntrySize is an entry's (or block's) size in the prompt.
type EntrySize struct {
	Key     string
	Section string
	Tokens  int    // before any cut
	Status  string // "in", "cut" or "left out"
}

// Section returns the named section, or nil.
func (r *Report) Section(name string) *SectionReport {
	for i := range r.Sections {
		if r.Sections[i].Name == name {
			return &r.Sections[i]
		}
	}
	return nil
}

// report builds the Report from the budget's decisions.
func (b *budgeter) report(remainder int) *Report {
	r := &Report{
		Tokenizer:     b.c.Name(),
		ContextTokens: b.s.ContextTokens,
		Available:     b.s.Available(),
		RequiredCap:   b.capTokens,
		Reserve:       b.s.ResponseReserve,
		CapShare:      b.s.RequiredCap,
		RequiredUsed:  b.reqUsed,
		Remainder:     remainder,
	}
	for _, i := range b.bySection[""] {
		r.Markers += b.st[i].tokens
		r.Total += b.st[i].tokens
	}
	sizes := map[[2]string]*EntrySize{}
	for _, name := range BudgetSections() {
		sec := SectionReport{Name: name, Class: "required", Budget: b.budgets[name], Dropped: []string{}}
		if slices.Contains([]string{budgetCards, budgetHistory, budgetMemory}, name) {
			sec.Class = "dynamic"
			switch name {
			case budgetCards:
				sec.Share = b.s.Shares.Cards
			case budgetHistory:
				sec.Share = b.historyShare
			}
		} else if name == budgetLastAction || name == budgetFrontMemory {
			sec.Budget = b.capTokens
		}
		idx := b.bySection[name]
		keptKey := map[string]bool{}
		for _, i := range idx {
			if b.st[i].kept {
				keptKey[keyOf(b.pieces[i])] = true
			}
		}
		anyKept, items := false, 0
		seenDrop := map[string]bool{}
		for _, i := range idx {
			st, p := b.st[i], b.pieces[i]
			if st.kept {
				sec.Tokens += st.tokens
				r.Total += st.tokens
			}
			if p.Section == "" { // a marker of the section: not an entry
				continue
			}
			items++
			if st.kept {
				anyKept = true
			}
			key := keyOf(p)
			whole := st.whole
			if st.cut {
				sec.Cut = true
				sec.Notes = append(sec.Notes, Note{Key: key, Tokens: whole, Kept: st.tokens, Cut: true, Why: st.why})
			}
			if !st.kept {
				sec.Notes = append(sec.Notes, Note{Key: key, Tokens: whole, Why: st.why})
				if !keptKey[key] && !seenDrop[key] {
					seenDrop[key] = true
					sec.Dropped = append(sec.Dropped, key)
				}
			}
			k := [2]string{key, name}
			e := sizes[k]
			if e == nil {
				e = &EntrySize{Key: key, Section: name, Status: "left out"}
				sizes[k] = e
			}
			e.Tokens += whole
			switch {
			case st.cut:
				e.Status = "cut"
			case st.kept && e.Status == "left out":
				e.Status = "in"
			}
		}
		// SPEC §7: the section's own name when the whole section was left out.
		if items > 0 && !anyKept {
			sec.Dropped = []string{name}
		}
		r.Sections = append(r.Sections, sec)
	}
	r.Largest = largest(sizes, 5)
	return r
}

// largest returns the n biggest entries, biggest first (ties by section, then
// key), in one pass: a lorebook may put thousands of cards in a report.
func largest(sizes map[[2]string]*EntrySize, n int) []EntrySize {
	less := func(a, b EntrySize) int {
		if c := cmp.Compare(b.Tokens, a.Tokens); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Section, b.Section); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	}
	top := make([]EntrySize, 0, n+1)
	for _, e := range sizes {
		if len(top) == n && less(*e, top[n-1]) >= 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, *e, less)
		top = slices.Insert(top, i, *e)
		if len(top) > n {
			top = top[:n]
		}
	}
	return top
}

// WriteText prints the report as a table a person reads at a glance: each
// section's tokens against its cap or share with a bar, the Required total
// against the cap, what was cut or left out and why, and the largest entries.
// It returns the first write error.
func (r *Report) WriteText(out io.Writer, color bool) error {
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

	pct := 0
	if r.RequiredCap > 0 {
		pct = r.RequiredUsed * 100 / r.RequiredCap
	}
	verdict := "under the cap, all of Required is whole"
	if r.requiredOver() {
		verdict = red("over the cap: lower-priority pieces were cut or left out")
	}
	fmt.Fprintf(w, "Required: %d tokens, %d%% of the %d-token cap (%d%% of %d available): %s\n",
		r.RequiredUsed, pct, r.RequiredCap, int(r.CapShare*100+0.5), r.Available, verdict)
	fmt.Fprintf(w, "Dynamic R = %d − %d = %d tokens for cards, history and memory\n", r.Available, r.RequiredUsed, r.Remainder)

	var notes []string
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
		for _, e := range r.Largest {
			st := e.Status
			switch st {
			case "cut":
				st = yellow(st)
			case "left out":
				st = red(st)
			}
			fmt.Fprintf(w, "  %-24s %-16s %7d  %s\n", e.Key, e.Section, e.Tokens, st)
		}
	}
	return ew.err
}

func (r *Report) requiredOver() bool {
	for _, s := range r.Sections {
		if s.Class == "required" && (s.Cut || len(s.Dropped) > 0) {
			return true
		}
	}
	return false
}

// groupNotes folds runs of notes with one reason into one line, so 200 old
// messages left out of history read as one line, not 200.
func groupNotes(notes []Note) []string {
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

// WriteText prints the always-sent budget (Report.WriteText) followed by every
// story card's size against the cards share, largest first, flagging the
// cards that can never be included. It returns the first write error.
func (s *Sizing) WriteText(out io.Writer, color bool) error {
	if err := s.Report.WriteText(out, color); err != nil {
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
	fmt.Fprintf(w, "\n%s\n", paint("1", "Story cards against the cards share"))
	fmt.Fprintf(w, "Without a chat, Required is %d tokens (%d before the cap): cards may take %d tokens, the trigger scan window is %d messages\n",
		s.Report.RequiredUsed, s.RequiredTotal, s.CardsShare, s.Window)
	if len(s.Cards) == 0 {
		fmt.Fprintln(w, "  (no story cards)")
		return ew.err
	}
	cards := slices.Clone(s.Cards)
	slices.SortStableFunc(cards, func(a, b CardSize) int { return cmp.Compare(b.Tokens, a.Tokens) })
	over := 0
	for _, c := range cards {
		note := ""
		if c.Over {
			over++
			note = paint("1;31", "over the whole cards share: it can never be included")
		}
		fmt.Fprintf(w, "  %-24s %7d  %s  %s\n", c.Entry.ID, c.Tokens, bar(c.Tokens, s.CardsShare, 20, color), note)
	}
	if over > 0 {
		fmt.Fprintf(w, "%d of %d cards exceed the cards share\n", over, len(cards))
	}
	return ew.err
}
