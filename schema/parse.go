package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// Limits that keep hostile or accidental input from hanging or exhausting lore.
const (
	// MaxFileSize is the largest file lore reads. Lorebooks are text; a file
	// larger than this is a mistake (a model, a video) and is refused after a
	// stat, before reading.
	MaxFileSize = 64 << 20
	// MaxDepth is the deepest nesting of collections accepted. Real lorebooks
	// nest fewer than ten levels; the cap keeps every recursive walk shallow.
	MaxDepth = 1000
	// minAliasBudget is how many values YAML aliases may add to a document
	// beyond those written in it. A billion-laughs file exceeds it in a few
	// milliseconds of counting, before anything is expanded.
	minAliasBudget = 1_000_000
	// aliasByteBudget is how many bytes of text YAML aliases may add to a
	// document beyond its own size: a long text reused a few times is a
	// template, a megabyte reused thousands of times is a bomb that every
	// rule would then read thousands of times.
	aliasByteBudget = 16 << 20
)

// ParseError is a file that cannot be read or parsed: it stops loading that
// file (exit 2), unlike a diagnostic. Pos names the file and, when known, the
// line and column of the problem.
type ParseError struct {
	Pos Pos
	Msg string
	// Err is the I/O error behind a file that could not be read (so that
	// errors.Is(err, fs.ErrNotExist) works), nil for a parse error.
	Err error
}

func (e *ParseError) Error() string { return e.Pos.String() + ": " + e.Msg }

func (e *ParseError) Unwrap() error { return e.Err }

// Diagnostic turns the error into an error-level diagnostic with rule "load",
// so printers can show it like any other finding.
func (e *ParseError) Diagnostic() diag.Diagnostic {
	return diag.New(e.Pos, diag.Error, "load", "%s", e.Msg)
}

func errAt(p Pos, format string, args ...any) *ParseError {
	return &ParseError{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// ParseFile reads a YAML or JSON file into a yaml.Node tree that carries the
// line and column of every value (JSON is converted to the same tree, so one
// walker serves both), and returns the root value node (never a DocumentNode)
// with the text. It applies every defence: size limit, regular files only,
// binary and invalid-UTF-8 detection, depth cap, alias-bomb and alias-cycle
// detection. The error, when not nil, is a *ParseError.
func ParseFile(path string) (*yaml.Node, []byte, error) {
	doc, err := ReadDoc(path)
	if err != nil {
		return nil, nil, err
	}
	return doc.Root, doc.Data, nil
}

// ReadFile reads a file with the size limit and the text checks (no NUL bytes,
// valid UTF-8, not empty), and strips a UTF-8 byte-order mark.
func ReadFile(path string) ([]byte, error) {
	data, err := ReadBytes(path)
	if err != nil {
		return nil, err
	}
	return checkText(path, data)
}

// ReadBytes reads a file as it is (a PNG card is binary), refusing what is
// not a regular file and what is over MaxFileSize, before reading it.
func ReadBytes(path string) ([]byte, error) {
	p := Pos{File: path}
	st, err := os.Stat(path)
	if err != nil {
		return nil, &ParseError{Pos: p, Msg: describeIOError(err), Err: err}
	}
	if err := checkRegular(path, st); err != nil {
		return nil, err
	}
	if st.Size() > MaxFileSize {
		return nil, tooBig(path, humanSize(st.Size()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errAt(p, "%s", describeIOError(err))
	}
	defer f.Close()
	// The file may grow between Stat and the read: limit the read too. Sized
	// from Stat, the buffer is allocated once, not grown by doubling.
	buf := bytes.NewBuffer(make([]byte, 0, st.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileSize+1)); err != nil {
		return nil, errAt(p, "%s", describeIOError(err))
	}
	data := buf.Bytes()
	if len(data) > MaxFileSize {
		return nil, tooBig(path, "over "+humanSize(MaxFileSize))
	}
	return data, nil
}

func tooBig(path, size string) *ParseError {
	return errAt(Pos{File: path}, "file is %s, over the %s limit: lorebooks are text; is this the right file?",
		size, humanSize(MaxFileSize))
}

// checkRegular refuses folders and special files: reading a named pipe waits
// for a writer forever, and a device or socket is never a lorebook.
func checkRegular(path string, st fs.FileInfo) error {
	m := st.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return errAt(Pos{File: path}, "is a folder, not a file")
	}
	return errAt(Pos{File: path}, "is %s, not a regular file: lore reads lorebooks from files", SpecialFileKind(m))
}

// SpecialFileKind names the type of a file that is neither regular nor a
// folder, for messages: "a named pipe (FIFO)", "a socket", "a device".
func SpecialFileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	}
	return "a special file"
}

func describeIOError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or folder"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return "cannot read: " + err.Error()
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// checkText refuses what is not UTF-8 text, naming the first bad byte's place.
func checkText(path string, data []byte) ([]byte, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, errAt(newLineIndex(path, data).pos(i),
			"binary data (a NUL byte), not YAML or JSON text")
	}
	if !utf8.Valid(data) {
		i := firstInvalidUTF8(data)
		return nil, errAt(newLineIndex(path, data).pos(i),
			"invalid UTF-8 (byte 0x%02x): save the file as UTF-8", data[i])
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errAt(Pos{File: path}, "file is empty: expected YAML or JSON")
	}
	return data, nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// IsJSON says whether data (from path) is parsed as JSON: by extension, or by a
// first non-space byte that starts a JSON object or array.
func IsJSON(path string, data []byte) bool {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".json" {
		return true
	}
	if ext == ".yaml" || ext == ".yml" {
		return false
	}
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// ParseBytes parses data that did not come through ReadFile (a PNG card's
// chunk, a file read by another package): it applies ReadFile's text checks
// first, then parses as ParseFile does.
func ParseBytes(path string, data []byte) (*yaml.Node, error) {
	doc, err := ParseDoc(path, data)
	if err != nil {
		return nil, err
	}
	return doc.Root, nil
}

// parseText parses data that has passed checkText.
func parseText(path string, data []byte) (*yaml.Node, error) {
	var root *yaml.Node
	var err error
	if IsJSON(path, data) {
		// JSON has no aliases, and the parser caps the nesting itself.
		return parseJSON(path, data, 0, len(data))
	}
	if root, err = parseYAML(path, data); err != nil {
		return nil, err
	}
	if err := checkExpansion(path, root, len(data)); err != nil {
		return nil, err
	}
	return root, nil
}

func parseYAML(path string, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, errAt(Pos{File: path}, "file is empty: expected YAML or JSON (it holds only comments)")
		}
		return nil, yamlSyntaxError(path, data, err)
	}
	// A second document is almost always a stray "---" meant as a separator
	// inside an entry; loading only the first would silently drop the rest.
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		p := Pos{File: path, Line: next.Line, Col: next.Column}
		if len(next.Content) > 0 {
			p.Line, p.Col = next.Content[0].Line, next.Content[0].Column
		}
		return nil, errAt(p, "a second YAML document starts here (after a \"---\" line): a lorebook file holds one document; indent the text or put it in a block scalar (content: |)")
	} else if err != io.EOF {
		return nil, yamlSyntaxError(path, data, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, errAt(Pos{File: path}, "file is empty: expected YAML or JSON")
	}
	root := doc.Content[0]
	// Comments before the first key belong to the document; keep them on the root.
	if doc.HeadComment != "" && root.HeadComment == "" {
		root.HeadComment = doc.HeadComment
	}
	return root, nil
}

// checkExpansion walks the tree once, memoising each node's expanded size
// (values and bytes of text) and depth, so that aliases are counted without
// being expanded: alias bombs, alias cycles and over-deep nesting are refused
// here, and every later walk may follow aliases freely.
func checkExpansion(path string, root *yaml.Node, textSize int) error {
	type info struct{ size, bytes, depth int }
	memo := map[*yaml.Node]info{}
	active := map[*yaml.Node]bool{}
	budget := minAliasBudget + countNodes(root)
	byteBudget := aliasByteBudget + textSize
	var walk func(n *yaml.Node, depth int) (info, error)
	walk = func(n *yaml.Node, depth int) (info, error) {
		if depth > MaxDepth {
			return info{}, errAt(Pos{File: path, Line: n.Line, Col: n.Column}, "nesting is deeper than %d levels", MaxDepth)
		}
		if n.Anchor != "" {
			if in, ok := memo[n]; ok {
				return in, nil
			}
		}
		if n.Kind == yaml.AliasNode {
			if n.Alias == nil {
				return info{}, errAt(Pos{File: path, Line: n.Line, Col: n.Column}, "unknown alias *%s", n.Value)
			}
			if active[n.Alias] {
				return info{}, errAt(Pos{File: path, Line: n.Line, Col: n.Column},
					"alias *%s refers to the value that contains it (an endless loop)", n.Value)
			}
			in, err := walk(n.Alias, depth)
			if err != nil {
				return in, err
			}
			if in.depth+depth > MaxDepth {
				return info{}, errAt(Pos{File: path, Line: n.Line, Col: n.Column},
					"alias *%s makes the nesting deeper than %d levels", n.Value, MaxDepth)
			}
			return in, nil
		}
		// Only anchored nodes can be reached twice (through aliases), so only
		// they need memoising and cycle marks: plain trees cost no map work.
		anchored := n.Anchor != ""
		if anchored {
			active[n] = true
		}
		in := info{size: 1, bytes: len(n.Value)}
		for _, c := range n.Content {
			ci, err := walk(c, depth+1)
			if err != nil {
				return ci, err
			}
			in.size += ci.size
			in.bytes += ci.bytes
			if ci.depth+1 > in.depth {
				in.depth = ci.depth + 1
			}
			if in.size > budget {
				p := Pos{File: path, Line: c.Line, Col: c.Column}
				return info{}, errAt(p, "YAML aliases here expand the document by over a million values (an alias bomb?); lore does not expand it")
			}
			if in.bytes > byteBudget {
				p := Pos{File: path, Line: c.Line, Col: c.Column}
				return info{}, errAt(p, "YAML aliases here expand the document by over %s of text (an alias bomb?); lore does not expand it", humanSize(aliasByteBudget))
			}
		}
		if anchored {
			delete(active, n)
			memo[n] = in
		}
		return in, nil
	}
	_, err := walk(root, 1)
	return err
}

// countNodes counts the nodes written in the file (aliases not followed): the
// expansion budget is that plus minAliasBudget, so a big plain document
// passes while expansion out of proportion to the text does not.
func countNodes(n *yaml.Node) int {
	c := 1
	if n.Kind != yaml.AliasNode {
		for _, k := range n.Content {
			c += countNodes(k)
		}
	}
	return c
}
