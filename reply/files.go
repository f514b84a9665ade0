package reply

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// replyExts are the files of a folder of replies that are read: text,
// Markdown and SillyTavern chats.
var replyExts = map[string]bool{".txt": true, ".md": true, ".jsonl": true}

// Expand lists the reply files a path names: the file itself, or for a
// folder every .txt, .md and .jsonl file below it (hidden folders passed
// over), sorted.
func Expand(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return []string{path}, nil
	}
	var out []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != path && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if replyExts[strings.ToLower(filepath.Ext(p))] && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// ReadPath reads the replies of a file (see ReadFile), refusing what is not
// a regular file or is over schema.MaxFileSize.
func ReadPath(path string) ([]*Reply, []diag.Diagnostic, error) {
	data, err := schema.ReadBytes(path)
	if err != nil {
		return nil, nil, err
	}
	return ReadFile(path, data)
}
