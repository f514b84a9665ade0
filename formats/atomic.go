package formats

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lorekit/lore/schema"
)

// WriteFileAtomic writes data to path through a temporary file in the same
// folder and a rename, so a reader (or a crash) never sees half a file.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
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
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return nil
}

// WriteFolder writes lb as a folder lorebook: lorebook.<ext> (the manifest)
// and entries/<id>.<ext>, one entry per file. The folder is built beside dir
// under a temporary name and renamed into place, so dir is either the old
// folder or the whole new one. A non-empty dir is refused unless force.
func WriteFolder(dir string, lb *schema.Lorebook, format string) error {
	return writeFolder(dir, lb, format, false)
}

// WriteFolderForce is WriteFolder that replaces a non-empty dir.
func WriteFolderForce(dir string, lb *schema.Lorebook, format string) error {
	return writeFolder(dir, lb, format, true)
}

func writeFolder(dir string, lb *schema.Lorebook, format string, force bool) error {
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
			return err
		}
		empty = len(ents) == 0
		if !empty && !force {
			return fmt.Errorf("%s is not empty (use --force to replace it)", dir)
		}
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".lore-tmp-")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
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
	for _, e := range lb.Entries {
		b, err := EncodeEntry(e, format)
		if err != nil {
			return err
		}
		// Ids are kebab-case and unique, so they are safe, distinct names.
		if err := os.WriteFile(filepath.Join(tmp, "entries", e.ID+ext), b, 0o644); err != nil {
			return err
		}
	}
	switch {
	case !exists:
	case empty:
		if err := os.Remove(dir); err != nil {
			return err
		}
	default:
		old, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".lore-old-")
		if err != nil {
			return err
		}
		os.Remove(old)
		if err := os.Rename(dir, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(old, dir) // put the old folder back
			return err
		}
		done = true
		return os.RemoveAll(old)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	done = true
	return nil
}
