package schema

import (
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// Overlay is text that stands for files on disk: an editor's unsaved buffers,
// by file path (cleaned; the paths the loader forms by joining the folder's
// path and the file's name). A file in the overlay is read from it, with the
// same checks as a file read from disk; the files of a folder are still
// found on disk, so a buffer for a file that was never saved is not an entry
// file until it is. The nil Overlay reads everything from disk.
type Overlay map[string][]byte

// parseFile is ParseFile, reading path from the overlay when it holds it.
func (ov Overlay) parseFile(path string) (*yaml.Node, []byte, error) {
	if data, ok := ov[filepath.Clean(path)]; ok {
		doc, err := ParseDoc(path, data)
		if err != nil {
			return nil, nil, err
		}
		return doc.Root, doc.Data, nil
	}
	return ParseFile(path)
}

// LoadOverlay is Load with the files ov holds read from it instead of from
// disk: a folder lorebook whose manifest or entry files are open in an
// editor, or a single file (which must still exist on disk as a file).
func LoadOverlay(path string, ov Overlay) (*Lorebook, []diag.Diagnostic, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, errAt(Pos{File: path}, "%s", describeIOError(err))
	}
	if !st.IsDir() {
		data, ok := ov[filepath.Clean(path)]
		if !ok {
			return Load(path)
		}
		doc, err := ParseDoc(path, data)
		if err != nil {
			return finish(newLorebook(path), nil, err)
		}
		return LoadDoc(doc)
	}
	lb := newLorebook(path)
	ds, err := loadFolder(lb, path, ov)
	return finish(lb, ds, err)
}
