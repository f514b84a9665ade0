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
	old, err := os.ReadFile(s.Path)
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
