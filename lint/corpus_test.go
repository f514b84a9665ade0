package lint

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/internal/testcorpus"
)

const (
	labelsPath = "testdata/corpus-labels.tsv"
	// minPrecision is the share of lint's findings on the corpus that must
	// be labelled useful.
	minPrecision = 0.90
)

// corpusFindings lints every file of the corpus (SillyTavern worlds,
// character cards, NovelAI and AI Dungeon exports) and returns lint's own
// findings (the rules of the registry, not the loader's import notes) keyed
// "file:line:col rule" (file relative to the corpus), with an ordinal when one
// place has several. None may panic, every finding has a position, and every
// file but the two broken on purpose loads.
func corpusFindings(t *testing.T) (map[string]corpusFinding, []string) {
	t.Helper()
	root := testcorpus.Dir(t)
	out := map[string]corpusFinding{}
	var files []string
	for _, p := range testcorpus.Files(t) {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		files = append(files, rel)
		book, ds, err := formats.Open(p)
		if err != nil {
			if !strings.Contains(rel, "TRUNCATED") && !strings.HasSuffix(rel, "invalid.json") {
				t.Errorf("%s: unreadable: %v", rel, err)
			}
			continue
		}
		seen := map[string]int{}
		for _, d := range runWith(book, nil, nil, ds) {
			if d.File == "" || d.Rule == "" || d.Severity == 0 {
				t.Errorf("%s: finding without position or rule: %+v", rel, d)
			}
			if r := byID(d.Rule); r == nil || r.Check == nil {
				continue // the loader's findings (import notes, schema)
			}
			file := rel + strings.TrimPrefix(d.File, p) // keeps a card's [chara]
			key := fmt.Sprintf("%s:%d:%d %s", file, d.Line, d.Column, d.Rule)
			seen[key]++
			if n := seen[key]; n > 1 {
				key += fmt.Sprintf("#%d", n)
			}
			out[key] = corpusFinding{d, rel}
		}
	}
	if len(files) == 0 {
		t.Fatal("corpus is empty")
	}
	return out, files
}

// corpusFinding is a finding and the corpus file it came from.
type corpusFinding struct {
	d    diag.Diagnostic
	file string
}

type label struct {
	useful bool
	reason string
	line   int
}

func readLabels(t *testing.T) map[string]label {
	t.Helper()
	f, err := os.Open(labelsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]label{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 || (parts[0] != "useful" && parts[0] != "noise") || strings.TrimSpace(parts[2]) == "" {
			t.Fatalf("%s:%d: want `useful|noise<TAB>file:line:col rule<TAB>reason`, got %q", labelsPath, n, line)
		}
		if _, dup := out[parts[1]]; dup {
			t.Fatalf("%s:%d: %s labelled twice", labelsPath, n, parts[1])
		}
		out[parts[1]] = label{useful: parts[0] == "useful", reason: parts[2], line: n}
	}
	return out
}

// TestCorpusPrecision is the rerunnable precision measure: every finding lint
// gives on the corpus is labelled useful or noise, with a reason, in
// testdata/corpus-labels.tsv. A finding without a label fails the test (label
// it after reading it), so does a label whose finding is gone, and so does a
// useful share under 90 %. go test -run TestCorpusPrecision -v prints the
// share per book.
func TestCorpusPrecision(t *testing.T) {
	found, files := corpusFindings(t)
	labels := readLabels(t)
	var keys []string
	for k := range found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	type tally struct{ useful, total int }
	perFile := map[string]*tally{}
	for _, f := range files {
		perFile[f] = &tally{}
	}
	useful := 0
	for _, k := range keys {
		l, ok := labels[k]
		if !ok {
			t.Errorf("unlabelled finding (add a line to %s):\nuseful\t%s\t<why>\n  %s", labelsPath, k, found[k].d.Message)
			continue
		}
		if tl := perFile[found[k].file]; tl != nil {
			tl.total++
			if l.useful {
				tl.useful++
			}
		}
		if l.useful {
			useful++
		}
	}
	for k, l := range labels {
		if _, ok := found[k]; !ok {
			t.Errorf("%s:%d: label for a finding lint no longer gives: %s", labelsPath, l.line, k)
		}
	}
	for _, f := range files {
		if tl := perFile[f]; tl.total > 0 {
			t.Logf("%-70s %3d useful of %3d", f, tl.useful, tl.total)
		}
	}
	if len(found) == 0 {
		t.Fatal("no findings on the corpus")
	}
	share := float64(useful) / float64(len(found))
	t.Logf("precision: %d useful of %d findings (%.1f%%)", useful, len(found), share*100)
	if share < minPrecision {
		t.Errorf("precision %.1f%% is under %.0f%%", share*100, minPrecision*100)
	}
}
