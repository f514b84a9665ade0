package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/engine"
	"github.com/lorekit/lore/formats"
	"github.com/lorekit/lore/lint"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
	"github.com/lorekit/lore/tokenize"
)

// Options are the server's settings: the client's initializationOptions (or
// workspace/didChangeConfiguration's "lore" section).
type Options struct {
	// Vars is a variables file (as lint --vars): its values count as
	// defined, and hover shows them. Relative to the workspace's root.
	Vars string `json:"vars"`
	// Engine is the engine to judge by (as lint --engine), over
	// settings.engine.
	Engine string `json:"engine"`
}

var manifestNames = []string{"lorebook.yaml", "lorebook.yml", "lorebook.json"}

// bookOf is the book the file at path belongs to: the nearest folder, from
// the file's own up to root (the workspace's folder; "" for none: up to the
// file system's root), that holds a manifest; else the file itself.
func bookOf(path, root string) string {
	dir := filepath.Dir(path)
	for {
		for _, n := range manifestNames {
			if st, err := os.Stat(filepath.Join(dir, n)); err == nil && !st.IsDir() {
				return dir
			}
		}
		if dir == root || (root != "" && !within(dir, root)) {
			return path
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return path
		}
		dir = parent
	}
}

func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// analysis is one book read and linted: what every request about it answers
// from. It is made whole by analyze and never changed after, but for what
// the lazy parts fill in once.
type analysis struct {
	path  string // the book: a folder or a file
	book  *schema.Lorebook
	diags []diag.Diagnostic
	// files are the files whose diagnostics this book publishes: every file
	// read, and the book's own path when it is a file.
	files    []string
	settings schema.Settings
	judge    render.Engine
	vars     *schema.Vars
	texts    map[string]*text // each file's text, as analysed
	opts     Options

	once     sync.Once
	kwOnce   sync.Once
	idOnce   sync.Once
	pubOnce  sync.Once
	pub      map[string][]protocol.Diagnostic
	kws      *keywords
	ids      map[string]int
	mentions []mention
	descr    *render.Description
	counter  tokenize.Counter
}

// isBook says whether the file at path (with data, its text) is a lorebook
// lore should lint on its own: a foreign lorebook, or lore's data of the
// lorebook kind. A transcript, a variables or test file, .lore.yaml and
// files that are not lore's (package.json) are not.
func isBook(path string, data []byte) bool {
	base := filepath.Base(path)
	if base == settings.FileName || strings.HasSuffix(strings.ToLower(base), ".schema.json") {
		return false
	}
	src := formats.SourceFrom(path, data)
	if !src.Parsed() {
		// A PNG card, a CharX archive, or text that does not parse: a
		// broken file is a diagnostic only when it looks like lore's.
		return src.DocErr == nil || loreExt(path)
	}
	if src.Foreign() {
		return true
	}
	k, ok := schema.IsLoreData(path, src.Doc().Root)
	return ok && k == schema.KindLorebook
}

func loreExt(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// analyze reads the book at path, the files of ov read from the overlay,
// and lints it as `lore lint` would, with the settings of opts, the manifest
// and .lore.yaml. A book that cannot be read at all is its diagnostics; a
// panic inside lore becomes one diagnostic too, never the server's end.
func analyze(path string, ov schema.Overlay, opts Options, root string) (a *analysis) {
	a = &analysis{path: path, opts: opts, texts: map[string]*text{}}
	defer func() {
		if r := recover(); r != nil {
			a.book = nil
			a.diags = []diag.Diagnostic{diag.New(diag.Pos{File: a.mainFile(), Line: 1, Col: 1}, diag.Error, "internal",
				"lore lsp could not analyse this book (%v); please report it", r)}
		}
	}()
	var book *schema.Lorebook
	var ds []diag.Diagnostic
	var err error
	st, statErr := os.Stat(path)
	switch data, open := ov[path]; {
	case statErr == nil && st.IsDir():
		book, ds, err = schema.LoadOverlay(path, ov)
	case open:
		book, ds, err = formats.OpenWith(path, data)
	default:
		book, ds, err = formats.Open(path)
	}
	if book != nil {
		a.files = append(a.files, book.Files...)
	}
	if statErr == nil && !st.IsDir() && !contains(a.files, path) {
		a.files = append(a.files, path)
	}

	cfg := &lint.Config{}
	var file *settings.File
	if p := settings.Find(path); p != "" {
		f, cds, cerr := settings.LoadFile(p, lint.KnownRule)
		ds = append(ds, cds...)
		if cerr != nil {
			ds = append(ds, schema.ErrorDiagnostics(p, cerr)...)
		} else if len(cds) == 0 {
			file, cfg = f, lint.NewConfig(f)
		}
		a.files = append(a.files, p)
	}
	if opts.Vars != "" {
		vp := opts.Vars
		if !filepath.IsAbs(vp) && root != "" {
			vp = filepath.Join(root, vp)
		}
		v, vds, verr := schema.LoadVars(vp)
		ds = append(ds, vds...)
		if verr != nil {
			ds = append(ds, schema.ErrorDiagnostics(vp, verr)...)
		} else {
			a.vars = v
		}
	}
	if err != nil || book == nil {
		a.book = book
		a.diags = diag.Sort(lint.RunWith(nil, nil, cfg, append(ds, schema.ErrorDiagnostics(path, err)...)))
		a.settings = schema.DefaultSettings()
		a.judge, _ = engine.Get(engine.Default)
		a.readTexts(ov)
		return a
	}
	r := settings.Of(book, file)
	if opts.Engine != "" {
		r.Engine = opts.Engine
	}
	judge, base := engine.JudgeBy(r.Engine, book)
	a.book, a.settings, a.judge = book, r.Settings, judge
	a.diags = diag.Sort(lint.RunWith(book, a.vars, cfg.WithSettings(r).WithEngines(judge, base), ds))
	a.readTexts(ov)
	return a
}

// readTexts keeps the text of every file a diagnostic or entry points at,
// for turning positions into LSP's.
func (a *analysis) readTexts(ov schema.Overlay) {
	add := func(p string) {
		if p == "" || a.texts[p] != nil {
			return
		}
		if data, ok := ov[p]; ok {
			a.texts[p] = newText(data)
			return
		}
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return
		}
		data, err := schema.ReadBytes(p)
		if err != nil {
			return
		}
		a.texts[p] = newText(data)
	}
	for _, f := range a.files {
		add(f)
	}
	for _, d := range a.diags {
		add(d.File)
	}
}

// mainFile is the file a finding about the book as a whole goes on: the
// book's file, or its folder's manifest.
func (a *analysis) mainFile() string {
	if st, err := os.Stat(a.path); err == nil && st.IsDir() {
		for _, n := range manifestNames {
			p := filepath.Join(a.path, n)
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return a.path
}

// text is the text of file p ("" → nil).
func (a *analysis) text(p string) *text { return a.texts[p] }

// entryAt is the entry whose mapping holds the position (lore's line) in
// file p: the last entry of that file starting at or before it.
func (a *analysis) entryAt(p string, line int) *schema.Entry {
	if a.book == nil {
		return nil
	}
	var best *schema.Entry
	for _, e := range a.book.Entries {
		if e.Pos.File != p || e.Pos.Line > line {
			continue
		}
		if best == nil || e.Pos.Line >= best.Pos.Line {
			best = e
		}
	}
	return best
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// entryTitle names an entry in hovers: its id, and its name when it has one.
func entryTitle(e *schema.Entry) string {
	if e.Name != "" && e.Name != e.ID {
		return fmt.Sprintf("`%s` (%s)", e.ID, e.Name)
	}
	return fmt.Sprintf("`%s`", e.ID)
}
