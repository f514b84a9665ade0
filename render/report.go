package render

import (
	"cmp"
	"slices"
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
	// HistoryCut is the chat's oldest messages an engine left out for want
	// of room (SillyTavern's); nil when none were.
	HistoryCut *HistoryCut `json:"historyCut,omitempty"`

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

	// notes indexes the sections' notes for Note, built on first use.
	notes map[noteKey]*Note
}

type noteKey struct {
	section, key string
	cut          bool
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

// Note returns the first note of a section about a piece (by its key): the
// one saying it was cut when cut, else the one saying it was left out; nil
// when there is none. Explanations ask for every entry, so the notes are
// indexed once rather than searched each time.
func (r *Report) Note(section, key string, cut bool) *Note {
	if r.notes == nil {
		r.notes = map[noteKey]*Note{}
		for i := range r.Sections {
			s := &r.Sections[i]
			for k := range s.Notes {
				nk := noteKey{s.Name, s.Notes[k].Key, s.Notes[k].Cut}
				if _, ok := r.notes[nk]; !ok {
					r.notes[nk] = &s.Notes[k]
				}
			}
		}
	}
	return r.notes[noteKey{section, key, cut}]
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
			if st.unweighed { // left out unweighed (SentOnly): named, not sized
				if p.Message >= 0 && p.Key != "" { // a message is one piece, its key its own
					sec.Dropped = append(sec.Dropped, key)
				} else if !keptKey[key] && !seenDrop[key] {
					seenDrop[key] = true
					sec.Dropped = append(sec.Dropped, key)
				}
				continue
			}
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
