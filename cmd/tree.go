package cmd

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/testrun"
	"gopkg.in/yaml.v3"
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
// checked only when named. Files and lorebook folders named by the user are
// kept as they are.
func expandPaths(paths []string, kinds ...string) ([]string, error) {
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() || hasManifest(p) {
			out = append(out, p)
			continue
		}
		found, err := walkTree(p, want)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, usageErr("%s is not a lorebook (it has no lorebook.yaml) and holds none: name a lorebook folder or file", p)
		}
		out = append(out, found...)
	}
	return out, nil
}

func hasManifest(dir string) bool {
	for _, n := range []string{"lorebook.yaml", "lorebook.yml", "lorebook.json"} {
		if st, err := os.Stat(filepath.Join(dir, n)); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

func walkTree(root string, want map[string]bool) ([]string, error) {
	var found []string
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
			return nil, usageErr("%s: %v", pe.Path, pe.Err)
		}
		return nil, usageErr("%v", err)
	}
	return found, nil
}

// fileKind says what a file found in a tree is: a lorebook, a transcript, or
// "" for anything lore does not recognise as its own. A file that does not
// parse counts as what its name suggests, so its errors are reported.
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
	data, err := os.ReadFile(p)
	if err != nil || len(data) > schema.MaxFileSize {
		return treeLorebook // let the loader report it
	}
	if ext == ".png" {
		if bytes.Contains(data, []byte("tEXtchara\x00")) || bytes.Contains(data, []byte("tEXtccv3\x00")) {
			return treeLorebook
		}
		return "" // an image, not a character card
	}
	if _, _, err := formats.Convert(p, data); !errors.Is(err, formats.ErrNative) {
		return treeLorebook // a foreign lorebook, or broken JSON: Open reports it
	}
	root, err := schema.ParseBytes(p, data)
	if err != nil {
		return treeLorebook
	}
	switch schema.DetectKind(p, root) {
	case schema.KindTranscript:
		return treeTranscript
	case schema.KindLorebook:
		if looksLikeLore(root) {
			return treeLorebook
		}
	}
	return ""
}

// looksLikeLore: a mapping with entries (a single-file lorebook) or with id and
// section (one entry), or a list whose first item has a section.
func looksLikeLore(n *yaml.Node) bool {
	has := func(m *yaml.Node, keys ...string) bool {
		if m == nil || m.Kind != yaml.MappingNode {
			return false
		}
		seen := 0
		for i := 0; i+1 < len(m.Content); i += 2 {
			for _, k := range keys {
				if m.Content[i].Value == k {
					seen++
				}
			}
		}
		return seen == len(keys)
	}
	switch n.Kind {
	case yaml.MappingNode:
		return has(n, "entries") || has(n, "id", "section")
	case yaml.SequenceNode:
		return len(n.Content) > 0 && has(n.Content[0], "section")
	}
	return false
}
