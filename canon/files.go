package canon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/lorekit/lore/schema"
)

// WriteError is a write that failed. It names the file or folder the caller
// asked for, never the temporary name lore writes through (a user cannot act
// on ".book.yaml.tmp-4242355308").
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string { return "cannot write " + e.Path + ": " + e.Err.Error() }

func (e *WriteError) Unwrap() error { return e.Err }

// writeErr is a WriteError for target, keeping only the cause of err (an
// *os.PathError or *os.LinkError names the temporary path).
func writeErr(target string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &WriteError{Path: target, Err: err}
}

// ErrReadOnly is the cause of a WriteError for a file without write
// permission: lore does not replace it, as editors and formatters do not,
// even though a rename could.
var ErrReadOnly = errors.New("the file is read-only")

// Writable says whether WriteFile may replace path: it is a missing file, or
// an existing regular one with its owner's write permission. It follows
// symbolic links. A device, a named pipe or a socket is refused: the rename
// would replace /dev/null (as root) or a FIFO with a regular file.
func Writable(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return writeErr(path, err)
	case st.IsDir():
		return &WriteError{Path: path, Err: errors.New("it is a folder")}
	case !st.Mode().IsRegular():
		return &WriteError{Path: path, Err: fmt.Errorf("it is %s, not a regular file: lore writes only regular files (leave out -o to write to standard output)", schema.SpecialFileKind(st.Mode()))}
	case st.Mode().Perm()&0o200 == 0:
		return &WriteError{Path: path, Err: ErrReadOnly}
	}
	return nil
}

// WriteFile writes data to path through a temporary file in the same folder
// and a rename, so a reader (or a crash) never sees half a file. A file that
// exists keeps its permissions, a symbolic link stays a link (its target is
// rewritten), and a read-only file is refused; a new file gets 0644.
func WriteFile(path string, data []byte) error {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	if err := Writable(target); err != nil {
		if we, ok := err.(*WriteError); ok {
			we.Path = path // the name the user gave, not the link's target
		}
		return err
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return writeErr(path, err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return writeErr(path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return writeErr(path, err)
	}
	if err := f.Close(); err != nil {
		return writeErr(path, err)
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return writeErr(path, err)
	}
	if err := os.Rename(tmp, target); err != nil {
		return writeErr(path, err)
	}
	ok = true
	return nil
}

// WriteFolder writes lb as a folder lorebook: lorebook.<ext> (the manifest)
// and entries/<NN>-<id>.<ext> (EntryFileName), one entry per file. The folder is built beside dir
// under a temporary name and renamed into place, so dir is either the old
// folder or the whole new one. A non-empty dir is refused unless force.
//
// extra are other files to write beside the manifest (a card's image), by
// plain file name.
func WriteFolder(dir string, lb *schema.Lorebook, format string, force bool, extra ...File) error {
	return WriteFolderEach(dir, lb, format, force, nil, extra...)
}

// WriteFolderEach is WriteFolder calling wrote (when not nil) after each
// entry's file is written: import's progress bar.
func WriteFolderEach(dir string, lb *schema.Lorebook, format string, force bool, wrote func(), extra ...File) error {
	dir = filepath.Clean(dir)
	ext := "." + format
	if format == "" || format == YAML {
		ext, format = ".yaml", YAML
	}
	exists, empty := false, true
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s is a file, not a folder", dir)
		}
		exists = true
		ents, err := os.ReadDir(dir)
		if err != nil {
			return writeErr(dir, err)
		}
		empty = len(ents) == 0
		if !empty && !force {
			return fmt.Errorf("%s is not empty (use --force to replace it)", dir)
		}
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return writeErr(dir, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".lore-tmp-")
	if err != nil {
		return writeErr(dir, err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	if err := fillFolder(tmp, lb, format, ext, wrote); err != nil {
		return writeErr(dir, err)
	}
	for _, f := range extra {
		if !filepath.IsLocal(f.Name) || filepath.Base(f.Name) != f.Name {
			return fmt.Errorf("cannot write %q into a folder lorebook: not a plain file name", f.Name)
		}
		if err := os.WriteFile(filepath.Join(tmp, f.Name), f.Data, 0o644); err != nil {
			return writeErr(dir, err)
		}
	}
	switch {
	case !exists:
	case empty:
		if err := os.Remove(dir); err != nil {
			return writeErr(dir, err)
		}
	default:
		old, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".lore-old-")
		if err != nil {
			return writeErr(dir, err)
		}
		os.Remove(old)
		if err := os.Rename(dir, old); err != nil {
			return writeErr(dir, err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(old, dir) // put the old folder back
			return writeErr(dir, err)
		}
		done = true
		if err := os.RemoveAll(old); err != nil {
			// Here the temporary name is one the user must act on.
			return fmt.Errorf("%s was written, but its previous content, moved to %s, could not be removed: %v", dir, old, err)
		}
		return nil
	}
	if err := os.Rename(tmp, dir); err != nil {
		return writeErr(dir, err)
	}
	done = true
	return nil
}

// File is a file WriteFolder writes beside the manifest.
type File struct {
	Name string
	Data []byte
}

// fillFolder writes the files of a folder lorebook into the empty folder tmp.
func fillFolder(tmp string, lb *schema.Lorebook, format, ext string, wrote func()) error {
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	man, err := EncodeManifest(&lb.Manifest, format)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "lorebook"+ext), man, 0o644); err != nil {
		return err
	}
	if len(lb.Entries) > 0 {
		if err := os.Mkdir(filepath.Join(tmp, "entries"), 0o755); err != nil {
			return err
		}
	}
	for i, e := range lb.Entries {
		b, err := EncodeEntry(e, format)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, "entries", EntryFileName(i, len(lb.Entries), e.ID)+ext), b, 0o644); err != nil {
			return err
		}
		if wrote != nil {
			wrote()
		}
	}
	return nil
}

// EntryFileName is the name (without extension) of the i-th of n entries of
// a folder lorebook: its place, zero-padded so the names sort as the entries
// stand, then its id ("03-songs"). A folder is read in the order of its file
// names (schema.Load), and the order is the book's: it is the order a card's
// character_book and a SillyTavern book are written in, and some engines
// break ties by it, so named by id alone ("songs" before "description") the
// entries would come back reordered. Ids are kebab-case, so the name is safe;
// the place makes it distinct even for entries with one id.
func EntryFileName(i, n int, id string) string {
	width := max(2, len(strconv.Itoa(n)))
	return fmt.Sprintf("%0*d-%s", width, i+1, id)
}
