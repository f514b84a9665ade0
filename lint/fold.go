package lint

import (
	"strings"

	"github.com/lorekit/lore/diag"
)

// foldAt is how many findings of one cause text output folds into one line:
// two still read well one per line.
const foldAt = 3

// foldShow is how many subjects a folded line names.
const foldShow = 5

// Fold is ds as text output shows them: the findings of one rule that share a
// Group (one cause: "80 entries have no keys and forceActivation is false…"),
// when there are foldAt or more, become one line at the first of them, naming
// the first few subjects and counting the rest. A reader sees the cause once;
// JSON, SARIF and GitHub output keep one result per location, so tools and
// baselines still see each. ds must be sorted; the result is too.
func Fold(ds []diag.Diagnostic) []diag.Diagnostic {
	type key struct{ rule, group string }
	count := map[key]int{} // distinct subjects
	seen := map[key]map[string]bool{}
	for _, d := range ds {
		if d.Group == "" {
			continue
		}
		k := key{d.Rule, d.Group}
		if seen[k] == nil {
			seen[k] = map[string]bool{}
		}
		if !seen[k][d.Subject] {
			seen[k][d.Subject] = true
			count[k]++
		}
	}
	folded := map[key]int{} // → index in out
	out := make([]diag.Diagnostic, 0, len(ds))
	subjects := map[key][]string{}
	for _, d := range ds {
		k := key{d.Rule, d.Group}
		if d.Group == "" || count[k] < foldAt {
			out = append(out, d)
			continue
		}
		if i, ok := folded[k]; ok {
			out[i].Severity = max(out[i].Severity, d.Severity)
		} else {
			folded[k] = len(out)
			out = append(out, d)
		}
		if seen[k][d.Subject] {
			seen[k][d.Subject] = false // listed now
			subjects[k] = append(subjects[k], d.Subject)
		}
	}
	for k, i := range folded {
		s := subjects[k]
		list := strings.Join(s[:min(len(s), foldShow)], ", ")
		if len(s) > foldShow {
			list += " and " + itoa(len(s)-foldShow) + " more"
		}
		d := &out[i]
		d.Message = strings.Replace(k.group, "%d", itoa(len(s)), 1) + ": " + list
		d.Entry, d.Group, d.Subject = "", "", ""
	}
	return out
}
