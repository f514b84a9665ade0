package cmd

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/testrun"
)

// treeKinds are what a folder that is not itself a lorebook may hold.
const (
	treeLorebook   = "lorebook"
	treeTranscript = "transcript"
	treeTest       = "test" // lore test's files (testrun.IsTestFile)
)

// expandPaths replaces each folder without a manifest by what lore can check
// below it, so that `lore lint .` works at the root of a repository or of a
// `lore init` project: every lorebook folder (one with lorebook.yaml; not looked
// into further), and every other file lore recognises as its own, of the kinds
// wanted (lore lorebooks, foreign lorebooks, card PNGs; transcripts). Files that
// are not lore data (package.json, CI configuration, images) are passed over:
// a variables file cannot be told from any other small YAML map, so it is
// checked only when named. Named pipes, sockets and devices are skipped with
// a note (reading a pipe would wait forever). Files and lorebook folders named
// by the user are kept as they are.
func expandPaths(paths []string, kinds ...string) ([]string, []diag.Diagnostic, error) {
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	var out []string
	var notes []diag.Diagnostic
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() || hasManifest(p) {
			out = append(out, p)
			continue
		}
		found, skipped, err := walkTree(p, want)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, skipped...)
		if len(found) == 0 {
			return nil, nil, usageErr("%s is not a lorebook (it has no lorebook.yaml) and holds none: name a lorebook folder or file", p)
		}
		out = append(out, found...)
	}
	return out, notes, nil
}

func hasManifest(dir string) bool {
	for _, n := range []string{"lorebook.yaml", "lorebook.yml", "lorebook.json"} {
		if st, err := os.Stat(filepath.Join(dir, n)); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

func walkTree(root string, want map[string]bool) ([]string, []diag.Diagnostic, error) {
	var found []string
	var notes []diag.Diagnostic
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := de.Name()
		// Snapshots are lore test's output (a JSON one looks like a
		// transcript), never its input.
		if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" || name == testrun.SnapshotDir) {
			if de.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if de.IsDir() {
			if p != root && hasManifest(p) {
				if want[treeLorebook] {
					found = append(found, p)
				}
				return filepath.SkipDir
			}
			return nil
		}
		if note := schema.SpecialFileNote(p, de); note != nil {
			if fileKind(p) != "" || (want[treeTest] && testrun.IsTestFile(p)) {
				notes = append(notes, *note) // one of lore's files, but unreadable as one
			}
			return nil
		}
		if want[treeTest] {
			if testrun.IsTestFile(p) {
				found = append(found, p)
			}
			if !want[treeLorebook] && !want[treeTranscript] {
				return nil // by name alone: no file need be read
			}
		}
		if k := fileKind(p); k != "" && want[k] {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, nil, usageErr("%s: %v", pe.Path, pe.Err)
		}
		return nil, nil, usageErr("%v", err)
	}
	return found, notes, nil
}

// fileKind says what a file found in a tree is: a lorebook, a transcript, or
// "" for anything lore does not recognise as its own (schema.IsLoreData). A
// file that cannot be read or parsed counts as what its name suggests, so its
// errors are reported; so does a special file, which is then skipped with a
// note.
func fileKind(p string) string {
	ext := strings.ToLower(filepath.Ext(p))
	switch {
	case strings.HasSuffix(strings.ToLower(p), ".schema.json"):
		return ""
	case ext == ".jsonl":
		return treeTranscript
	case ext == ".lorebook":
		return treeLorebook
	case ext != ".png" && ext != ".json" && ext != ".yaml" && ext != ".yml":
		return ""
	}
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return treeLorebook
	}
	src, err := formats.ReadSource(p)
	if err != nil {
		return treeLorebook // let the loader report it
	}
	if ext == ".png" {
		if src.IsCard() {
			return treeLorebook
		}
		return "" // an image, not a character card
	}
	if src.Foreign() || src.Doc() == nil {
		return treeLorebook // broken text (Open reports it), or a foreign lorebook
	}
	switch k, ok := schema.IsLoreData(p, src.Doc().Root); {
	case !ok:
		return ""
	case k == schema.KindTranscript:
		return treeTranscript
	}
	return treeLorebook
}
