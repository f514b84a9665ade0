package diag

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"
)

// RuleInfo describes a rule for SARIF's tool.driver.rules: GitHub code scanning
// shows the short description in its alert list and the help text and link on
// the alert page.
type RuleInfo struct {
	ID          string
	Severity    Severity // default level
	Description string
	Help        string
	HelpURI     string
}

// SARIFPrinter writes one SARIF 2.1.0 log with one run of tool "lore". Rules
// lists every rule the tool has (lint passes its registry, so the driver
// describes rules that found nothing too); rules that appear only in the results
// are added with their id. Paths are written relative to BaseDir (default: the
// working directory) with forward slashes, as code scanning expects paths
// relative to the repository root.
type SARIFPrinter struct {
	Rules   []RuleInfo
	Version string
	BaseDir string
}

func init() {
	registerPrinter("sarif", func(Options) Printer { return &SARIFPrinter{} })
}

// sarifLevel maps a severity to SARIF's level names.
func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

func (p *SARIFPrinter) Print(w io.Writer, ds []Diagnostic) error {
	report, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	driver := sarif.NewDriver("lore").WithInformationURI("https://github.com/lorekit/lore")
	if p.Version != "" {
		driver.WithVersion(p.Version)
	}
	run := sarif.NewRun(*sarif.NewTool(driver))
	index := map[string]int{}
	addRule := func(r RuleInfo) {
		if _, ok := index[r.ID]; ok {
			return
		}
		index[r.ID] = len(driver.Rules)
		rd := sarif.NewRule(r.ID).WithName(ruleName(r.ID))
		if r.Description != "" {
			rd.WithDescription(r.Description)
		} else {
			rd.WithDescription(r.ID)
		}
		if r.Help != "" {
			rd.WithTextHelp(r.Help)
		}
		if r.HelpURI != "" {
			rd.WithHelpURI(r.HelpURI)
		}
		if r.Severity != 0 {
			rd.WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(r.Severity)))
		}
		driver.Rules = append(driver.Rules, rd)
	}
	for _, r := range p.Rules {
		addRule(r)
	}
	base := p.BaseDir
	results := make([]*sarif.Result, 0, len(ds))
	seen := map[string]int{}
	for _, d := range ds {
		addRule(RuleInfo{ID: d.Rule})
		res := sarif.NewRuleResult(d.Rule).
			WithRuleIndex(index[d.Rule]).
			WithLevel(sarifLevel(d.Severity)).
			WithMessage(sarif.NewTextMessage(d.Message)).
			WithPartialFingerPrints(map[string]any{fingerprintKey: Fingerprint(d, relURI(base, d.File), seen)})
		if d.File != "" {
			region := sarif.NewRegion()
			if d.Line > 0 {
				region.WithStartLine(d.Line)
				if d.Column > 0 {
					region.WithStartColumn(d.Column)
				}
			}
			loc := sarif.NewPhysicalLocation().
				WithArtifactLocation(sarif.NewSimpleArtifactLocation(relURI(base, d.File)))
			if d.Line > 0 {
				loc.WithRegion(region)
			}
			res.AddLocation(sarif.NewLocationWithPhysicalLocation(loc))
		}
		if r := d.Related; r != nil {
			addRelated(res, relURI(base, r.File), r)
		}
		results = append(results, res)
	}
	run.WithResults(results)
	report.AddRun(run)
	b, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// relURI makes file relative to base (or the working directory) with forward
// slashes; a file outside it keeps its own path.
func relURI(base, file string) string {
	if filepath.IsAbs(file) {
		if base == "" {
			base = "."
		}
		if b, err := filepath.Abs(base); err == nil {
			if r, err := filepath.Rel(b, file); err == nil && !strings.HasPrefix(r, "..") {
				file = r
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(file))
}

// ruleName turns keyword-collision into KeywordCollision, SARIF's convention
// for a rule's human-readable name.
func ruleName(id string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// fingerprintKey names lore's partial fingerprint in SARIF results.
const fingerprintKey = "loreFinding/v1"

// Fingerprint identifies a finding across runs for code scanning: its rule, its
// file (as the SARIF result names it) and the id of the entry it is about, with
// an ordinal among earlier findings of that same rule, file and entry (seen
// counts them; pass one map per run, findings in their sorted order). Lines and
// messages are left out, so the fingerprint survives edits that move the entry.
func Fingerprint(d Diagnostic, file string, seen map[string]int) string {
	key := d.Rule + "\x00" + file + "\x00" + d.Entry
	n := seen[key]
	seen[key] = n + 1
	sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
	return hex.EncodeToString(sum[:16])
}

// addRelated adds a finding's second place as related location 1, which the
// message links to ("[template](1)"), as code scanning shows it.
func addRelated(res *sarif.Result, uri string, r *Related) {
	loc := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(uri))
	if r.Line > 0 {
		region := sarif.NewRegion().WithStartLine(r.Line)
		if r.Column > 0 {
			region.WithStartColumn(r.Column)
		}
		loc.WithRegion(region)
	}
	res.AddRelatedLocation(sarif.NewLocationWithPhysicalLocation(loc).WithId(1).
		WithMessage(sarif.NewTextMessage(r.Message)))
	if res.Message.Text != nil {
		text := *res.Message.Text + " ([" + r.Message + "](1))"
		res.Message.Text = &text
	}
}
