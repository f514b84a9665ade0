package testrun

import (
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// TestObsoleteSnapshots: a snapshot no case names is reported when the run
// loaded every test file of its project, never when it cannot tell, and
// never when another file of the project names it.
func TestObsoleteSnapshots(t *testing.T) {
	dir := t.TempDir()
	snaps := filepath.Join(dir, "tests", SnapshotDir)
	writeFile(t, filepath.Join(dir, "book.yaml"), "entries: [{id: a, section: chat-history, content: x}]\n")
	writeFile(t, filepath.Join(dir, "tests", "a.yaml"), "lorebook: ../book.yaml\ncases: [{name: a, expect: {snapshot: kept}}]\n")
	writeFile(t, filepath.Join(dir, "tests", "b.yaml"), "lorebook: ../book.yaml\ncases: [{name: b, expect: {inactive: [a]}}]\n")
	writeFile(t, filepath.Join(dir, "extra-tests.yaml"), "lorebook: book.yaml\ncases: [{name: c, expect: {snapshot: used-elsewhere}}]\n")
	for _, s := range []string{"old.txt", "old-json.json", "used-elsewhere.txt", "notes.md"} {
		writeFile(t, filepath.Join(snaps, s), "x\n")
	}
	a, b := Target{Path: filepath.Join(dir, "tests", "a.yaml")}, Target{Path: filepath.Join(dir, "tests", "b.yaml")}
	if rep := Run([]Target{a}, Options{Update: true}); rep.ExitCode() != 0 { // writes kept.txt
		t.Fatalf("lore test -u: exit %d", rep.ExitCode())
	}
	obsolete := func(targets []Target, o Options) []string {
		o.Update = false
		var out []string
		for _, s := range Run(targets, o).Snapshots {
			if s.Status == "obsolete" {
				out = append(out, filepath.Base(s.Path))
			}
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		targets []Target
		opts    Options
		want    []string
	}{
		{"every test file", []Target{a, b}, Options{}, []string{"old-json.json", "old.txt"}},
		{"one file of two", []Target{a}, Options{}, nil},
		{"--run", []Target{a, b}, Options{Run: regexp.MustCompile("a")}, nil},
		{"one lorebook's tests", []Target{{Path: a.Path, Only: filepath.Join(dir, "other.yaml")}, b}, Options{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := obsolete(tc.targets, tc.opts); !slices.Equal(got, tc.want) {
				t.Errorf("obsolete snapshots %v, want %v", got, tc.want)
			}
		})
	}
	// The report counts them and the text output says what to do.
	rep := Run([]Target{a, b}, Options{})
	if got, want := rep.Summary(), "2 passed, 0 failed, 2 snapshots obsolete"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d: an obsolete snapshot is not a failure", rep.ExitCode())
	}
}
