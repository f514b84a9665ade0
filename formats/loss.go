package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/lorekit/lore/diag"
)

// Loss kinds: how a value fares in a conversion.
const (
	// LossDropped: the target has no place for the value; it is not written.
	LossDropped = "dropped"
	// LossChanged: the value is written, but the target reads it differently
	// (a depth counted in other units, a place with no equivalent, a default
	// that differs), or it reads back as something else.
	LossChanged = "changed"
	// LossIgnored (import only): lore keeps the value verbatim under
	// extensions, and export to its format writes it back, but lore's own
	// engine does not act on it.
	LossIgnored = "ignored"
)

// Loss is one thing a conversion does not carry over as it was.
type Loss struct {
	// Entry is the id of the entry (in lore), "" for the book itself.
	Entry string
	// Field names the value as the source names it ("probability",
	// "extensions.probability", "depth"); "" for the whole entry.
	Field string
	// Value is the source value, shortened; Target what the target holds
	// instead ("" when dropped).
	Value, Target string
	Kind          string
	// Reason says why, in the target's terms; Fix what to do about it. Both
	// are the same for every entry a rule hits, so a report groups by them.
	Reason, Fix string
	// Pos is where the value is in the source.
	Pos diag.Pos
	// ActedOn names the engine lore simulates that reads the kept value and
	// acts on it as its tool does ("sillytavern"), "" when none: imported for
	// that engine, it is no loss.
	ActedOn string
}

// LossReport is everything a conversion from one format to another does not
// carry over, in source order.
type LossReport struct {
	From, To string
	File     string
	Losses   []Loss
	// Engine is the engine the report is about: the lorebook renders with it
	// ("" for lore's). ActedOn counts the kept values it acts on, left out of
	// Losses.
	Engine  string
	ActedOn int
}

// Entries is the number of entries with at least one loss, and whether the
// book itself (its manifest, settings, book-level data) has some: the book
// is not an entry.
func (r *LossReport) Entries() (entries int, book bool) {
	seen := map[string]bool{}
	for _, l := range r.Losses {
		if l.Entry == "" {
			book = true
		} else if !seen[l.Entry] {
			seen[l.Entry] = true
			entries++
		}
	}
	return entries, book
}

// where says what the losses are in: "3 entries", "3 entries and the book",
// "the book".
func (r *LossReport) where() string {
	n, book := r.Entries()
	switch {
	case n == 0:
		return "the book"
	case book:
		return plural(n, "entry", "entries") + " and the book"
	}
	return plural(n, "entry", "entries")
}

// sortLosses orders losses by source position, then entry and field, so a
// report never depends on the order rules ran in.
func sortLosses(ls []Loss) {
	sort.SliceStable(ls, func(i, j int) bool {
		a, b := ls[i], ls[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Entry != b.Entry {
			return a.Entry < b.Entry
		}
		return a.Field < b.Field
	})
}

// lossJSON is one loss as --format json prints it.
type lossJSON struct {
	Entry  string `json:"entry"`
	Field  string `json:"field"`
	Kind   string `json:"kind"`
	Value  string `json:"value,omitempty"`
	Target string `json:"target,omitempty"`
	Reason string `json:"reason"`
	Fix    string `json:"fix,omitempty"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// JSON is the report as data: {from, to, file, lossless, losses: [...]}.
func (r *LossReport) JSON() []byte {
	out := struct {
		From     string     `json:"from"`
		To       string     `json:"to"`
		File     string     `json:"file"`
		Engine   string     `json:"engine,omitempty"`
		ActedOn  int        `json:"actedOn,omitempty"`
		Lossless bool       `json:"lossless"`
		Losses   []lossJSON `json:"losses"`
	}{r.From, r.To, r.File, r.Engine, r.ActedOn, len(r.Losses) == 0, []lossJSON{}}
	for _, l := range r.Losses {
		out.Losses = append(out.Losses, lossJSON{l.Entry, l.Field, l.Kind, l.Value, l.Target, l.Reason, l.Fix,
			l.Pos.File, l.Pos.Line, l.Pos.Col})
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	return append(b, '\n')
}

// Text is the report for people: a summary line, then one group per reason
// (kind, field and why, once), each loss of the group on its own line with
// its position, entry and value, and what to do.
//
//	lore: sillytavern → novelai: 3 losses in 2 entries
//	changed depth: NovelAI counts lines of story text, not chat messages
//	  world.json:40:12  dragon  2 → insertionPosition -4
//	  to do: check the place in NovelAI's context viewer
func (r *LossReport) Text() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "lore: %s → %s: ", r.From, r.To)
	if len(r.Losses) == 0 {
		b.WriteString("no loss\n")
		r.actedOnNote(&b)
		return b.Bytes()
	}
	fmt.Fprintf(&b, "%s in %s\n", plural(len(r.Losses), "loss", "losses"), r.where())
	type group struct {
		head  string
		fix   string
		items []Loss
	}
	var groups []*group
	byHead := map[string]*group{}
	for _, l := range r.Losses {
		field := l.Field
		if field == "" {
			field = "entry"
		}
		head := l.Kind + " " + field + ": " + l.Reason
		g := byHead[head+"\x00"+l.Fix]
		if g == nil {
			g = &group{head: head, fix: l.Fix}
			byHead[head+"\x00"+l.Fix] = g
			groups = append(groups, g)
		}
		g.items = append(g.items, l)
	}
	for _, g := range groups {
		b.WriteString(g.head + "\n")
		for _, l := range g.items {
			// Ids, values and file names come from the book: escaped, so
			// that none can act on the terminal or start a line.
			l.Pos.File, l.Entry, l.Value, l.Target = diag.Printable(l.Pos.File), diag.Printable(l.Entry), diag.Printable(l.Value), diag.Printable(l.Target)
			b.WriteString("  " + l.Pos.String())
			entry := l.Entry
			if entry == "" {
				entry = "(book)"
			}
			b.WriteString("  " + entry)
			switch {
			case l.Value != "" && l.Target != "":
				b.WriteString("  " + l.Value + " → " + l.Target)
			case l.Value != "":
				b.WriteString("  " + l.Value)
			case l.Target != "":
				b.WriteString("  → " + l.Target)
			}
			b.WriteByte('\n')
		}
		if g.fix != "" {
			b.WriteString("  to do: " + g.fix + "\n")
		}
	}
	r.actedOnNote(&b)
	return b.Bytes()
}

// actedOnNote says how many kept values the report's engine acts on.
func (r *LossReport) actedOnNote(b *bytes.Buffer) {
	if r.ActedOn > 0 {
		tool := map[string]string{"sillytavern": "SillyTavern"}[r.Engine]
		fmt.Fprintf(b, "lore: the %s engine (settings.engine) acts on %s kept under extensions as %s does; lore's own engine would ignore them (import --engine lore lists them)\n",
			r.Engine, plural(r.ActedOn, "value", "values"), tool)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// short is a value as a report shows it: JSON, cut at 60 characters.
func short(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	default:
		b, err := json.Marshal(x)
		if err != nil {
			s = fmt.Sprint(x)
		} else {
			s = string(b)
		}
	}
	s = strings.ReplaceAll(s, "\n", "⏎")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "…"
	}
	return s
}
