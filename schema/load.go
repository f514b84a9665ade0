package schema

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// manifestNames are the file names of a folder lorebook's manifest.
var manifestNames = []string{"lorebook.yaml", "lorebook.yml", "lorebook.json"}

// Load reads a lorebook in lore's own format (SPEC §2): a folder with a
// manifest and entry files, one file with manifest keys and entries:, or a
// bare list of entries. Schema problems and duplicate ids come back as
// diagnostics; the error (a *ParseError, or several joined) is for input that
// cannot be read or parsed, and the lorebook then holds what could be loaded.
func Load(path string) (*Lorebook, []diag.Diagnostic, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, errAt(Pos{File: path}, "%s", describeIOError(err))
	}
	if !st.IsDir() {
		doc, err := ReadDoc(path)
		if err != nil {
			return finish(newLorebook(path), nil, err)
		}
		return LoadDoc(doc)
	}
	lb := newLorebook(path)
	ds, err := loadFolder(lb, path, nil)
	return finish(lb, ds, err)
}

// LoadDoc loads a single-file lorebook that has been read and parsed.
func LoadDoc(doc *Doc) (*Lorebook, []diag.Diagnostic, error) {
	lb := newLorebook(doc.Path)
	return finish(lb, loadSingle(lb, doc), nil)
}

func newLorebook(path string) *Lorebook {
	return &Lorebook{Path: path, Format: "lore", Manifest: Manifest{Settings: DefaultSettings()}}
}

// finish names a lorebook without name: after its file or folder, reports
// duplicate ids and sorts the diagnostics.
func finish(lb *Lorebook, ds []diag.Diagnostic, err error) (*Lorebook, []diag.Diagnostic, error) {
	if lb.Manifest.Name == "" {
		base := filepath.Base(filepath.Clean(lb.Path))
		lb.Manifest.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	PackKeywords(lb.Entries)
	dups := duplicateIDs(lb.Entries)
	lb.UniqueIDs = len(dups) == 0
	ds = append(ds, dups...)
	ds = append(ds, roomForPrompt(&lb.Manifest)...)
	return lb, diag.Sort(ds), err
}

func loadSingle(lb *Lorebook, doc *Doc) []diag.Diagnostic {
	path, root := doc.Path, doc.Root
	lb.Files = append(lb.Files, path)
	d := newDecoder(path, doc.Data)
	switch {
	case root.Kind == yaml.SequenceNode:
		checked := checkAlongside(&docCheck{file: path, root: root, entryAt: []string{"*"}}, "entries", len(doc.Data))
		for _, c := range root.Content {
			lb.Entries = append(lb.Entries, d.entry(c))
		}
		return append(checked(), d.diags...)
	case root.Kind == yaml.MappingNode && isSingleEntry(root):
		ds := (&docCheck{file: path, root: root, entryAt: []string{}}).check("entry")
		lb.Entries = append(lb.Entries, d.entry(root))
		return append(ds, d.diags...)
	case root.Kind == yaml.MappingNode:
		checked := checkAlongside(&docCheck{file: path, root: root, entryAt: []string{"entries", "*"}}, "lorebook", len(doc.Data))
		lb.Manifest = d.manifest(root)
		lb.Entries = append(lb.Entries, d.entriesOf(root)...)
		return append(checked(), d.diags...)
	}
	return []diag.Diagnostic{diag.New(Pos{File: path, Line: root.Line, Col: root.Column}, diag.Error, "schema",
		"expected a lorebook (a mapping with entries:, or a list of entries), found %s", kindName(root))}
}

// checkAlongsideFrom is the size of a document (in bytes) from which its
// schema check runs beside its decoding.
const checkAlongsideFrom = 256 << 10

// checkAlongside starts the schema check of a document and returns a
// function that waits for its findings. A large document is checked on
// another goroutine while the caller decodes it (both only read the tree;
// about 12 ms of 60 at 10,000 entries); the findings are the same, in the
// same order.
func checkAlongside(c *docCheck, schemaName string, size int) func() []diag.Diagnostic {
	if size < checkAlongsideFrom || runtime.GOMAXPROCS(0) < 2 {
		ds := c.check(schemaName)
		return func() []diag.Diagnostic { return ds }
	}
	done := make(chan []diag.Diagnostic, 1)
	go func() { done <- c.check(schemaName) }()
	return func() []diag.Diagnostic { return <-done }
}

// entriesOf decodes the entries: list of a manifest mapping.
func (d *decoder) entriesOf(root *yaml.Node) []*Entry {
	var out []*Entry
	for _, c := range items(valueOf(root, "entries")) {
		out = append(out, d.entry(c))
	}
	return out
}

func loadFolder(lb *Lorebook, dir string, ov Overlay) ([]diag.Diagnostic, error) {
	var manifests []string
	for _, n := range manifestNames {
		p := filepath.Join(dir, n)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			manifests = append(manifests, p)
		}
	}
	switch len(manifests) {
	case 0:
		return nil, errAt(Pos{File: dir}, "folder has no lorebook.yaml (or lorebook.yml, lorebook.json): a folder lorebook needs a manifest, even one holding only name:")
	case 1:
	default:
		return nil, errAt(Pos{File: manifests[1]}, "folder has two manifests, %s and %s: keep one", filepath.Base(manifests[0]), filepath.Base(manifests[1]))
	}
	var ds []diag.Diagnostic
	var errs []error
	root, data, err := ov.parseFile(manifests[0])
	if err != nil {
		errs = append(errs, err)
	} else {
		lb.Files = append(lb.Files, manifests[0])
		d := newDecoder(manifests[0], data)
		if root.Kind != yaml.MappingNode {
			ds = append(ds, diag.New(Pos{File: manifests[0], Line: root.Line, Col: root.Column}, diag.Error, "schema",
				"the manifest must be a mapping (name:, settings:, ...), not %s", kindName(root)))
		} else {
			ds = append(ds, (&docCheck{file: manifests[0], root: root, entryAt: []string{"entries", "*"}}).check("lorebook")...)
			lb.Manifest = d.manifest(root)
			lb.Entries = append(lb.Entries, d.entriesOf(root)...)
			ds = append(ds, d.diags...)
		}
	}
	files, skipped, err := entryFiles(dir, manifests[0])
	if err != nil {
		errs = append(errs, err)
	}
	ds = append(ds, skipped...)
	for _, f := range files {
		root, data, err := ov.parseFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if note := notEntries(f, root); note != nil {
			ds = append(ds, *note)
			continue
		}
		lb.Files = append(lb.Files, f)
		d := newDecoder(f, data)
		switch root.Kind {
		case yaml.SequenceNode:
			ds = append(ds, (&docCheck{file: f, root: root, entryAt: []string{"*"}}).check("entries")...)
			for _, c := range root.Content {
				lb.Entries = append(lb.Entries, d.entry(c))
			}
		case yaml.MappingNode:
			ds = append(ds, (&docCheck{file: f, root: root, entryAt: []string{}}).check("entry")...)
			lb.Entries = append(lb.Entries, d.entry(root))
		default:
			ds = append(ds, diag.New(Pos{File: f, Line: root.Line, Col: root.Column}, diag.Error, "schema",
				"an entry file holds one entry (a mapping) or a list of entries, not %s", kindName(root)))
		}
		ds = append(ds, d.diags...)
	}
	return ds, errors.Join(errs...)
}

// entryFiles lists *.yaml, *.yml and *.json below dir, sorted by path,
// skipping hidden files and folders, the manifest, and *.schema.json files
// (JSON Schemas saved beside the entries for editors, never entries). Named
// pipes, sockets and devices are skipped with a note: reading a pipe would
// wait for a writer forever.
func entryFiles(dir, manifest string) ([]string, []diag.Diagnostic, error) {
	var files []string
	var notes []diag.Diagnostic
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return errAt(Pos{File: p}, "%s", describeIOError(err))
		}
		name := de.Name()
		if p != dir && strings.HasPrefix(name, ".") {
			if de.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if de.IsDir() || p == manifest || strings.HasSuffix(strings.ToLower(name), ".schema.json") {
			return nil
		}
		switch strings.ToLower(filepath.Ext(name)) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		if note := SpecialFileNote(p, de); note != nil {
			notes = append(notes, *note)
			return nil
		}
		files = append(files, p)
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return filepath.ToSlash(files[i]) < filepath.ToSlash(files[j]) })
	return files, notes, err
}

// notEntries is the note for a file of a folder lorebook that is plainly
// not entries: a transcript or a test file someone kept inside the book's
// folder, which read as entries would be a page of schema errors about
// fields it was never meant to have. It is named and skipped; nil for
// anything else (a variables file cannot be told from a broken entry).
func notEntries(p string, root *yaml.Node) *diag.Diagnostic {
	var msg string
	switch DetectKind(p, root) {
	case KindTranscript:
		msg = "skipped: a transcript, not entries; keep it outside the lorebook's folder and pass it with --transcript"
	case KindTest:
		msg = "skipped: a test file of lore test, not entries; keep it outside the lorebook's folder (in tests/ beside it) and run it with lore test"
	default:
		return nil
	}
	d := diag.New(Pos{File: p}, diag.Info, "load", "%s", msg)
	return &d
}

// SpecialFileNote returns the note for a file found in a folder that is not a
// regular file (a named pipe, a socket, a device; a symbolic link is judged
// by its target), which is skipped; nil for a regular file, and for one that
// cannot be stat'ed (its reader reports that).
func SpecialFileNote(p string, de fs.DirEntry) *diag.Diagnostic {
	m := de.Type()
	if m&fs.ModeSymlink != 0 {
		st, err := os.Stat(p)
		if err != nil {
			return nil
		}
		m = st.Mode()
	}
	if m.IsRegular() || m.IsDir() {
		return nil
	}
	d := diag.New(Pos{File: p}, diag.Info, "load", "skipped: %s, not a regular file; lore reads lorebooks from files", SpecialFileKind(m))
	return &d
}

// duplicateIDs reports every entry whose id an earlier entry already has,
// naming both places.
func duplicateIDs(entries []*Entry) []diag.Diagnostic {
	first := make(map[string]*Entry, len(entries))
	var ds []diag.Diagnostic
	for _, e := range entries {
		if e.ID == "" {
			continue
		}
		if f, ok := first[e.ID]; ok {
			fp := f.FieldPos("id")
			ds = append(ds, diag.New(e.FieldPos("id"), diag.Error, "duplicate-id",
				"duplicate id %q: also the id of the entry at %s; ids must be unique in a lorebook", e.ID, fp))
			continue
		}
		first[e.ID] = e
	}
	return ds
}

// ErrorDiagnostics turns a load error (one *ParseError or several joined) into
// diagnostics with rule "load"; other errors get the position of path.
func ErrorDiagnostics(path string, err error) []diag.Diagnostic {
	if err == nil {
		return nil
	}
	var out []diag.Diagnostic
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var pe *ParseError
		if errors.As(e, &pe) {
			out = append(out, pe.Diagnostic())
			return
		}
		out = append(out, diag.New(Pos{File: path}, diag.Error, "load", "%v", e))
	}
	walk(err)
	return out
}
