package formats

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// exportTo is the "export --to X" a loss report's "to do" names.
var exportTo = regexp.MustCompile(`export --to ([a-z0-9-]+)`)

// TestFixesNameRealTargets: every "to do" of every import and export report
// of every corpus and fixture file that names an export names one lore
// writes: a creator who follows it must not meet "--to must be …".
func TestFixesNameRealTargets(t *testing.T) {
	for _, f := range convertibles(t) {
		lb, _, err := Open(f)
		if err != nil {
			t.Fatal(err)
		}
		reports := []*LossReport{ImportReport(lb)}
		for _, target := range Targets {
			_, r, err := Export(lb, target, nil)
			if err != nil {
				t.Fatal(err)
			}
			reports = append(reports, r)
		}
		for _, r := range reports {
			for _, l := range r.Losses {
				for _, m := range exportTo.FindAllStringSubmatch(l.Fix, -1) {
					if !slices.Contains(Targets, m[1]) {
						t.Errorf("%s → %s: %s %s: to do %q names a target lore does not write", filepath.Base(f), r.To, l.Entry, l.Field, l.Fix)
					}
				}
			}
		}
	}
}

// TestLossReportCounts: the summary counts entries, and the book apart
// (it is not an entry); matchWholeWords is no change for an entry without
// keywords, which matches nothing.
func TestLossReportCounts(t *testing.T) {
	book := `{"name": "Coast", "settings": {"contextTokens": 4096}, "entries": [
{"id": "rules", "section": "system-presets", "content": "Narrate."},
{"id": "lamp", "section": "chat-history", "content": "Lamp.", "keywords": ["lamp"]},
{"id": "always", "section": "chat-history", "content": "Always.", "alwaysSend": true}]}`
	lb := loadLore(t, book)
	_, r, err := Export(lb, FormatNovelAI, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range r.Losses {
		if l.Field == "matchWholeWords" && l.Entry != "lamp" {
			t.Errorf("matchWholeWords reported for %s, which has no keywords", l.Entry)
		}
	}
	n, bookLosses := r.Entries()
	head, _, _ := strings.Cut(string(r.Text()), "\n")
	if n != 3 || !bookLosses || !strings.HasSuffix(head, " in 3 entries and the book") {
		t.Errorf("Entries() = %d, %v; summary %q", n, bookLosses, head)
	}
	for _, tc := range []struct {
		losses []Loss
		want   string
	}{
		{[]Loss{{Entry: "a"}, {Entry: "a"}, {Entry: "b"}}, "3 losses in 2 entries"},
		{[]Loss{{Entry: ""}}, "1 loss in the book"},
		{[]Loss{{Entry: "a"}, {Entry: ""}}, "2 losses in 1 entry and the book"},
	} {
		r := &LossReport{From: "lore", To: "novelai", Losses: tc.losses}
		if head, _, _ := strings.Cut(string(r.Text()), "\n"); head != "lore: lore → novelai: "+tc.want {
			t.Errorf("summary %q, want %q", head, tc.want)
		}
	}
}
