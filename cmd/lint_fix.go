package cmd

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/lint"
	"github.com/lorekit/lore/schema"
)

// fixLint applies (or, with --diff, prints) the mechanical fixes of every
// lore lorebook among books, found being each one's findings. Foreign-format
// files are never rewritten: lore would have to write them in another tool's
// format, so it says to import them first. Ids renamed by the fixes are
// renamed in the baseline too, so accepted findings stay accepted. It
// returns how many findings it fixed.
func fixLint(iox *IO, opts *lintOptions, books []*schema.Lorebook, found [][]diag.Diagnostic, baseline *lint.Baseline) (int, error) {
	total := 0
	renamed := map[string]map[string]string{} // file → old id → new id
	var failed error
	for i, book := range books {
		if book == nil {
			continue
		}
		reqs := lint.NewFixRequests(book, found[i])
		if len(reqs) == 0 {
			continue
		}
		if book.Format != "lore" {
			fmt.Fprintf(iox.Stderr, "%s: a %s file: --fix rewrites only lore's own files; import it first (lore import %s -o DIR) and fix that\n",
				book.Path, book.Format, book.Path)
			continue
		}
		files := make([]string, 0, len(reqs))
		for f := range reqs {
			files = append(files, f)
		}
		sort.Strings(files)
		for _, file := range files {
			n, ren, err := fixFile(iox, opts, file, book, reqs[file])
			if err != nil {
				fmt.Fprintln(iox.Stderr, err)
				failed = exitCode(ExitUsage)
				continue
			}
			total += n
			if len(ren) > 0 {
				renamed[file] = ren
			}
		}
	}
	if baseline != nil && len(renamed) > 0 && !opts.diff {
		baseline.RenameEntries(renamed)
		if err := canon.WriteFile(opts.baseline, baseline.Encode()); err != nil {
			return total, err
		}
	}
	return total, failed
}

// fixFile fixes one file: the BOM and line ends of the original are kept.
func fixFile(iox *IO, opts *lintOptions, file string, book *schema.Lorebook, req lint.FixRequest) (int, map[string]string, error) {
	raw, err := schema.ReadBytes(file)
	if err != nil {
		return 0, nil, err
	}
	bom := []byte("\xef\xbb\xbf")
	data := bytes.TrimPrefix(raw, bom)
	var entries []*schema.Entry
	for _, e := range book.Entries {
		if e.Pos.File == file {
			entries = append(entries, e)
		}
	}
	res, err := lint.FixFile(file, data, entries, req)
	if err != nil {
		return 0, nil, err
	}
	out := res.Out
	if len(data) != len(raw) {
		out = append(append([]byte(nil), bom...), out...)
	}
	if bytes.Equal(out, raw) {
		return 0, nil, nil
	}
	if opts.diff {
		name := filepath.ToSlash(file)
		_, err := iox.Stdout.Write(diff.Diff(name, raw, name, out))
		return res.Fixed, nil, err
	}
	if err := canon.WriteFile(file, out); err != nil {
		return 0, nil, err
	}
	word := "findings"
	if res.Fixed == 1 {
		word = "finding"
	}
	fmt.Fprintf(iox.Stderr, "%s: fixed %d %s\n", file, res.Fixed, word)
	return res.Fixed, res.Renamed, nil
}
