package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/lorekit/lore/diag"
)

// BaselineName is the baseline file `lore lint --write-baseline` writes when
// --baseline names none.
const BaselineName = ".lore-baseline.json"

// Baseline is the findings a repository has accepted (a .lore-baseline.json),
// so that CI on an existing lorebook fails only on new ones. Findings are
// counted per file, entry and rule, never by line or message: moving an
// entry, or a number changing in a message, keeps it in the baseline, while
// a second finding of the same rule on the same entry is new.
type Baseline struct {
	// Dir is the folder of the baseline file: its file paths are relative to
	// it, with forward slashes, so the file can be committed.
	Dir      string         `json:"-"`
	Version  int            `json:"version"`
	Findings []BaselineItem `json:"findings"`
}

// BaselineItem is how many findings of one rule one entry (or, for findings
// about no entry, one file) has.
type BaselineItem struct {
	File  string `json:"file"`
	Entry string `json:"entry,omitempty"`
	Rule  string `json:"rule"`
	Count int    `json:"count"`
}

type baselineKey struct{ file, entry, rule string }

func (b *Baseline) key(d diag.Diagnostic) baselineKey {
	file := d.File
	if b.Dir != "" {
		if abs, err := filepath.Abs(file); err == nil {
			if dir, err := filepath.Abs(b.Dir); err == nil {
				if rel, err := filepath.Rel(dir, abs); err == nil {
					file = rel
				}
			}
		}
	}
	return baselineKey{filepath.ToSlash(file), d.Entry, d.Rule}
}

// NewBaseline counts ds into a baseline whose paths are relative to dir.
func NewBaseline(dir string, ds []diag.Diagnostic) *Baseline {
	b := &Baseline{Dir: dir, Version: 1, Findings: []BaselineItem{}}
	count := map[baselineKey]int{}
	for _, d := range ds {
		count[b.key(d)]++
	}
	for k, n := range count {
		b.Findings = append(b.Findings, BaselineItem{File: k.file, Entry: k.entry, Rule: k.rule, Count: n})
	}
	sort.Slice(b.Findings, func(i, j int) bool {
		x, y := b.Findings[i], b.Findings[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Entry != y.Entry {
			return x.Entry < y.Entry
		}
		return x.Rule < y.Rule
	})
	return b
}

// Encode is the baseline as its file holds it: indented JSON, sorted.
func (b *Baseline) Encode() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(b) // plain strings and ints: cannot fail
	return buf.Bytes()
}

// ParseBaseline reads a baseline file's bytes; dir is its folder.
func ParseBaseline(dir string, data []byte) (*Baseline, error) {
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("not a lore baseline (%v); write one with lore lint --write-baseline", err)
	}
	if b.Version != 1 {
		return nil, fmt.Errorf("baseline version %d is not one this lore reads (1)", b.Version)
	}
	b.Dir = dir
	return &b, nil
}

// Filter drops from ds, which must be sorted, the findings the baseline
// accepts: per file, entry and rule, the first Count of them. It returns the
// others and how many it dropped.
func (b *Baseline) Filter(ds []diag.Diagnostic) ([]diag.Diagnostic, int) {
	left := map[baselineKey]int{}
	for _, it := range b.Findings {
		left[baselineKey{it.File, it.Entry, it.Rule}] += it.Count
	}
	out := make([]diag.Diagnostic, 0, len(ds))
	dropped := 0
	for _, d := range ds {
		k := b.key(d)
		if left[k] > 0 {
			left[k]--
			dropped++
			continue
		}
		out = append(out, d)
	}
	return out, dropped
}

// RenameEntries follows renamed ids (file → old id → new id, as --fix renames
// them), so the findings the baseline accepted on an entry stay accepted.
func (b *Baseline) RenameEntries(renamed map[string]map[string]string) {
	for file, ids := range renamed {
		k := b.key(diag.Diagnostic{File: file})
		for i := range b.Findings {
			if it := &b.Findings[i]; it.File == k.file {
				if id, ok := ids[it.Entry]; ok {
					it.Entry = id
				}
			}
		}
	}
}
