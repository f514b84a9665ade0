package testrun

import (
	"fmt"
	"strings"

	"github.com/lorekit/lore/diag"
)

// Status of a case.
type Status string

const (
	Pass  Status = "pass"
	Fail  Status = "fail"
	Error Status = "error" // its inputs could not be loaded or rendered
)

// Report is the outcome of a run, in file order and, within a file, in case
// order, whatever order the cases ran in.
type Report struct {
	Cases []*CaseResult
	// Problems are the diagnostics of test files and inputs that could not be
	// used (each once, sorted).
	Problems []diag.Diagnostic
	// Unusable says that a test file or an input could not be read or is not
	// a valid test file: the run is a usage error (exit 2).
	Unusable bool
	// Snapshots lists the snapshots `lore test -u` wrote, by path.
	Snapshots []SnapshotChange
}

// CaseResult is one case's outcome.
type CaseResult struct {
	File   string
	Name   string
	Pos    Pos
	Engine string
	Status Status
	// Error says why a case with Status Error could not run, and ErrorPos
	// where the test file names what is wrong.
	Error    string
	ErrorPos Pos
	Failures []*Failure
}

// Failure is one expectation that did not hold.
type Failure struct {
	Pos Pos
	// Kind names the expectation: active, inactive, activeExactly,
	// entries.step, entries.depth, entries.position, entries.recursion,
	// entries.trigger, order, tokens.total, tokens.section, tokens.cut,
	// tokens.dropped, prompt.contains, prompt.notContains, snapshot,
	// frequency, replies.match, replies.notMatch, replies.format.
	Kind string
	// Message is one sentence: what was expected and what happened.
	Message  string
	Expected string
	Got      string
	// Turn is the turn (from 1) of a multi-turn case, else 0; Run and Seed
	// say which render failed when the case has several runs (Run from 1).
	Turn int
	Run  int
	Seed int64
	// Explain is `lore render --explain` for the entries involved.
	Explain []Explanation
	// Diff is a unified diff of a snapshot (expected, then got).
	Diff string
	// Findings are what `lore check-reply` says of a reply that was to
	// match its format.
	Findings []diag.Diagnostic
}

// Explanation is why one entry is or is not in the prompt.
type Explanation struct {
	ID       string
	InPrompt bool
	// Text is `lore render --explain ID` as printed (without colour).
	Text    string
	Reasons []string
}

// SnapshotChange is a snapshot `lore test -u` wrote, or one that no case
// names.
type SnapshotChange struct {
	Path string `json:"path"`
	// Status is "written" (new), "updated" (changed) or "obsolete" (no
	// case of the project names it).
	Status string `json:"status"`
}

// Counts returns how many cases passed, failed and could not run.
func (r *Report) Counts() (passed, failed, errored int) {
	for _, c := range r.Cases {
		switch c.Status {
		case Pass:
			passed++
		case Fail:
			failed++
		case Error:
			errored++
		}
	}
	return
}

// Summary is the last line of the text output: "12 passed, 1 failed".
func (r *Report) Summary() string {
	p, f, e := r.Counts()
	parts := []string{fmt.Sprintf("%d passed, %d failed", p, f)}
	if e > 0 {
		parts = append(parts, fmt.Sprintf("%d could not run", e))
	}
	count := map[string]int{}
	for _, s := range r.Snapshots {
		count[s.Status]++
	}
	for _, st := range []string{"written", "updated", "obsolete"} {
		if n := count[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s %s", n, plural(n, "snapshot", "snapshots"), st))
		}
	}
	return strings.Join(parts, ", ")
}

// ExitCode is 0 when every case passed, 1 when one failed or could not be
// rendered, 2 when a test file or an input could not be read (or is not a
// valid test file).
func (r *Report) ExitCode() int {
	if r.Unusable {
		return 2
	}
	for _, c := range r.Cases {
		if c.Status != Pass {
			return 1
		}
	}
	return 0
}

// Title names a failure's render: "turn 2, run 17 (seed 16)".
func (f *Failure) Title() string {
	var parts []string
	if f.Turn > 0 {
		parts = append(parts, fmt.Sprintf("turn %d", f.Turn))
	}
	if f.Run > 0 {
		parts = append(parts, fmt.Sprintf("run %d (seed %d)", f.Run, f.Seed))
	}
	return strings.Join(parts, ", ")
}
