package testrun

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/output"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// snapshot compares the rendered prompt with its snapshot file, or, with
// Update, writes the file when it is missing or differs.
func (r *runner) snapshot(s *Snapshot, res *render.Result) *Failure {
	out, err := output.NewOutput(s.Format, output.OutputOptions{})
	if err != nil {
		return r.snapshotFailure(s, "a snapshot", err.Error(), err.Error())
	}
	var b bytes.Buffer
	if err := out.Write(&b, res); err != nil {
		return r.snapshotFailure(s, "a snapshot", err.Error(), "cannot write the prompt as "+s.Format+": "+err.Error())
	}
	got := b.Bytes()
	old, err := schema.ReadBytes(s.Path)
	exists := err == nil
	// A checkout with CRLF line ends (git autocrlf) holds the same snapshot.
	if exists && bytes.Equal(bytes.ReplaceAll(old, []byte("\r\n"), []byte("\n")), got) {
		return nil
	}
	shown := filepath.ToSlash(s.Path)
	if !exists && !errors.Is(err, fs.ErrNotExist) {
		return r.snapshotFailure(s, "the prompt in "+shown, err.Error(), fmt.Sprintf("cannot read snapshot %s: %v", shown, err))
	}
	if r.opts.Update {
		if err := writeSnapshot(s.Path, got); err != nil {
			// err names the file: "cannot write PATH: why".
			return r.snapshotFailure(s, "to write "+shown, err.Error(), fmt.Sprintf("snapshot: %v", err))
		}
		change := SnapshotChange{Path: shown, Status: "updated"}
		if !exists {
			change.Status = "written"
		}
		r.mu.Lock()
		r.rep.Snapshots = append(r.rep.Snapshots, change)
		r.mu.Unlock()
		return nil
	}
	if !exists {
		return r.snapshotFailure(s, "the prompt in "+shown, "no snapshot",
			fmt.Sprintf("snapshot %s does not exist yet: run lore test -u to write it", shown))
	}
	f := r.snapshotFailure(s, "the prompt in "+shown, "a different prompt",
		fmt.Sprintf("the prompt differs from snapshot %s (lore test -u accepts the new one)", shown))
	// The diff's own first line ("diff A B") says what its header says.
	d := string(diff.Diff(shown, old, "rendered", got))
	if _, rest, ok := strings.Cut(d, "\n"); ok && strings.HasPrefix(d, "diff ") {
		d = rest
	}
	f.Diff = d
	return f
}

func (r *runner) snapshotFailure(s *Snapshot, expected, got, msg string) *Failure {
	return &Failure{Pos: s.Pos, Kind: "snapshot", Expected: expected, Got: got, Message: msg}
}

func writeSnapshot(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return canon.WriteFile(path, data)
}

// obsoleteSnapshots reports the snapshot files of a project that no case
// names: a renamed or deleted case leaves its snapshot behind. Only a run
// that loaded every test file of the project can tell, so projects run in
// part (one file named, a lorebook's tests only, --run, a broken file) are
// left alone; and a test file outside the naming convention, run by name
// (eldoria/failing-tests.yaml), may name a snapshot of the project, so a
// snapshot whose name appears in any YAML or JSON file of the project's
// folder or its tests/ is not reported. lore never deletes one: it says so.
func (r *runner) obsoleteSnapshots(files []*File) {
	if r.opts.Run != nil {
		return
	}
	named := map[string]bool{}
	loaded := map[string]map[string]bool{} // project → its test files this run loaded
	partial := map[string]bool{}
	for _, f := range files {
		p := projectOf(f.Path)
		if f.broken != "" {
			partial[p] = true
			continue
		}
		if loaded[p] == nil {
			loaded[p] = map[string]bool{}
		}
		loaded[p][absPath(f.Path)] = true
		for _, c := range f.Cases {
			for _, t := range c.Turns {
				if t.Expect != nil && t.Expect.Snapshot != nil {
					named[absPath(t.Expect.Snapshot.Path)] = true
				}
			}
		}
	}
	for project, ran := range loaded {
		others, complete := projectFiles(project, ran)
		if partial[project] || !complete {
			continue
		}
		snaps, _ := filepath.Glob(filepath.Join(project, "tests", SnapshotDir, "*"))
		for _, s := range snaps {
			ext := filepath.Ext(s)
			if (ext != ".txt" && ext != ".json") || named[absPath(s)] || mentioned(others, strings.TrimSuffix(filepath.Base(s), ext)) {
				continue
			}
			r.rep.Snapshots = append(r.rep.Snapshots, SnapshotChange{Path: filepath.ToSlash(s), Status: "obsolete"})
		}
	}
}

// projectFiles lists the YAML and JSON files of the project's folder and its
// tests/ that this run did not load as test files, and says whether it
// loaded every test file there is.
func projectFiles(project string, ran map[string]bool) (others []string, complete bool) {
	complete = true
	for _, dir := range []string{project, filepath.Join(project, "tests")} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			switch ext := strings.ToLower(filepath.Ext(p)); {
			case !e.Type().IsRegular() || (ext != ".yaml" && ext != ".yml" && ext != ".json"):
			case ran[absPath(p)]:
			case IsTestFile(p) && projectOf(p) == project:
				complete = false
			default:
				others = append(others, p)
			}
		}
	}
	return others, complete
}

// mentioned says whether any of the files holds name.
func mentioned(files []string, name string) bool {
	for _, f := range files {
		if data, err := schema.ReadBytes(f); err == nil && bytes.Contains(data, []byte(name)) {
			return true
		}
	}
	return false
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}
