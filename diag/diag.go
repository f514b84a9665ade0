// Package diag owns the one Diagnostic type that validate, lint and render share,
// its ordering, and the printers that turn diagnostics into text, JSON, SARIF or
// GitHub annotations. It knows nothing of lorebooks: it never loads or checks files.
package diag

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Pos is where a value came from: file, 1-based line and 1-based column (in runes
// of the source line, so carets line up for non-ASCII text). The zero Pos means
// "no position known".
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	switch {
	case p.File == "":
		return "-"
	case p.Line == 0:
		return p.File
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Severity orders findings; a higher value is more severe.
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "off"
}

// ParseSeverity accepts the words used in configuration: off, info, warning, error.
// "off" returns 0.
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "off":
		return 0, nil
	case "info":
		return Info, nil
	case "warning":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want off, info, warning or error)", s)
}

func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// Diagnostic is one finding. Rule is a stable id ("schema", "keyword-collision", ...).
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
	// Entry is the id of the lorebook entry the finding is about ("" for a
	// file- or manifest-level finding). Baselines and SARIF fingerprints key
	// findings by rule, file and entry, so they survive lines moving.
	Entry string `json:"entry,omitempty"`
	// Group, when set, says that findings of this rule with the same Group
	// have one cause: text output may fold them into one line, Group being
	// its heading (its first "%d" replaced by their number) and each
	// finding's Subject an item of the list after it. Machine formats ignore both and
	// keep one result per location.
	Group   string `json:"-"`
	Subject string `json:"-"`
	// Related, when set, is a second place the finding is about: for a
	// reply checked against an output format, the template's text. Text
	// and GitHub output add it to the message, JSON writes it as
	// "related", SARIF as a related location.
	Related *Related `json:"related,omitempty"`
}

// Related is the second place of a finding, and what it is ("template").
type Related struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// Pos returns where r points.
func (r *Related) Pos() Pos { return Pos{File: r.File, Line: r.Line, Col: r.Column} }

// text is the message as one line of text output shows it: with the
// related place, when there is one.
func (d Diagnostic) text() string {
	if d.Related == nil {
		return d.Message
	}
	return d.Message + " (" + d.Related.Message + ": " + d.Related.Pos().String() + ")"
}

// same says whether two diagnostics say the same thing at the same places.
func same(a, b Diagnostic) bool {
	ra, rb := a.Related, b.Related
	a.Related, b.Related = nil, nil
	return a == b && (ra == rb || ra != nil && rb != nil && *ra == *rb)
}

// New builds a diagnostic at p.
func New(p Pos, sev Severity, rule, format string, args ...any) Diagnostic {
	return Diagnostic{File: p.File, Line: p.Line, Column: p.Col, Severity: sev, Rule: rule,
		Message: fmt.Sprintf(format, args...)}
}

// Pos returns where d points.
func (d Diagnostic) Pos() Pos { return Pos{File: d.File, Line: d.Line, Col: d.Column} }

// Sort orders diagnostics by file, line, column, rule and message, and removes exact
// duplicates, so output never depends on the order rules ran in. It sorts
// the diagnostics' indexes and moves each diagnostic once: a diagnostic is
// 128 bytes, and sorting them in place copied two per comparison and swapped
// them through reflection (a tenth of lint's own work on a book with 2,653
// findings).
func Sort(ds []Diagnostic) []Diagnostic {
	if len(ds) < 2 {
		return ds
	}
	order := make([]int32, len(ds))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(i, j int32) int { return compare(&ds[i], &ds[j]) })
	sorted := make([]Diagnostic, 0, len(ds))
	for k, i := range order {
		if k > 0 && same(ds[i], ds[order[k-1]]) {
			continue
		}
		sorted = append(sorted, ds[i])
	}
	return ds[:copy(ds, sorted)]
}

// compare is Sort's order: file, line, column, rule, message, and the more
// severe first.
func compare(a, b *Diagnostic) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Column, b.Column); c != 0 {
		return c
	}
	if c := strings.Compare(a.Rule, b.Rule); c != 0 {
		return c
	}
	if c := strings.Compare(a.Message, b.Message); c != 0 {
		return c
	}
	return cmp.Compare(b.Severity, a.Severity)
}

// Count returns how many diagnostics are at each severity.
func Count(ds []Diagnostic) (errors, warnings, infos int) {
	for _, d := range ds {
		switch d.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		case Info:
			infos++
		}
	}
	return
}
