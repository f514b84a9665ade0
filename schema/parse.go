package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
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
)

// ParseError is a file that cannot be read or parsed: it stops loading that
// file (exit 2), unlike a diagnostic. Pos names the file and, when known, the
// line and column of the problem.
type ParseError struct {
	Pos Pos
	Msg string
}

func (e *ParseError) Error() string { return e.Pos.String() + ": " + e.Msg }

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
// with the raw bytes. It applies every defence: size limit, binary and
// invalid-UTF-8 detection, depth cap, alias-bomb and alias-cycle detection.
// The error, when not nil, is a *ParseError.
func ParseFile(path string) (*yaml.Node, []byte, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	n, err := parseText(path, data)
	return n, data, err
}

// ReadFile reads a file with the size limit and the text checks (no NUL bytes,
// valid UTF-8, not empty), and strips a UTF-8 byte-order mark.
func ReadFile(path string) ([]byte, error) {
	p := Pos{File: path}
	st, err := os.Stat(path)
	if err != nil {
		return nil, errAt(p, "%s", describeIOError(err))
	}
	if st.IsDir() {
		return nil, errAt(p, "is a folder, not a file")
	}
	if st.Size() > MaxFileSize {
		return nil, errAt(p, "file is %s, over the %s limit: lorebooks are text; is this the right file?",
			humanSize(st.Size()), humanSize(MaxFileSize))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errAt(p, "%s", describeIOError(err))
	}
	defer f.Close()
	// Stat can say 0 for devices and pipes: limit the read too.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, errAt(p, "%s", describeIOError(err))
	}
	if len(data) > MaxFileSize {
		return nil, errAt(p, "file is over the %s limit: lorebooks are text; is this the right file?", humanSize(MaxFileSize))
	}
	return checkText(path, data)
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
	data, err := checkText(path, data)
	if err != nil {
		return nil, err
	}
	return parseText(path, data)
}

// parseText parses data that has passed checkText.
func parseText(path string, data []byte) (*yaml.Node, error) {
	var root *yaml.Node
	var err error
	if IsJSON(path, data) {
		root, err = parseJSON(path, data, 0, len(data))
	} else {
		root, err = parseYAML(path, data)
	}
	if err != nil {
		return nil, err
	}
	if err := checkExpansion(path, root); err != nil {
		return nil, err
	}
	return root, nil
}

var (
	yamlErrLine       = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	yamlUnknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)
)

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

// yamlParserProblems are the messages of yaml.v3's parser (as opposed to its
// scanner). For them yaml.v3 prints a 0-based line, the start of the enclosing
// collection more often than the offending token: one or more lines too early.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// yamlSyntaxError turns a yaml.v3 error into a positioned ParseError, moving
// parser errors to the line that really holds the problem.
func yamlSyntaxError(path string, data []byte, err error) *ParseError {
	li := newLineIndex(path, data)
	msg := err.Error()
	m := yamlErrLine.FindStringSubmatch(msg)
	if m == nil {
		msg = strings.TrimPrefix(msg, "yaml: ")
		if a := yamlUnknownAnchor.FindStringSubmatch(msg); a != nil {
			// yaml.v3 gives no line for this one: find the alias in the text.
			p := Pos{File: path}
			if i := bytes.Index(data, []byte("*"+a[1])); i >= 0 {
				p = li.pos(i)
			}
			return errAt(p, "invalid YAML: alias *%s names no anchor (&%s) defined before it", a[1], a[1])
		}
		if strings.HasPrefix(msg, "exceeded max depth") {
			return errAt(Pos{File: path, Line: 1, Col: 1}, "nesting is deeper than %d levels", MaxDepth)
		}
		return errAt(Pos{File: path}, "invalid YAML: %s", msg)
	}
	line, block, problem, _ := YAMLErrorLine(data, err)
	if strings.HasPrefix(problem, "exceeded max depth") {
		return errAt(li.lineStart(line), "nesting is deeper than %d levels", MaxDepth)
	}
	if block > 0 {
		return errAt(li.lineStart(line), "invalid YAML: %s (in the block that starts at line %d)", problem, block)
	}
	if problem == "found unexpected end of stream" {
		problem += " (a quote or bracket opened here is never closed?)"
	}
	if off := li.offset(line, 1); off >= 0 && off < len(data) && data[off] == '\t' {
		return errAt(li.pos(off), "invalid YAML: a tab indents this line; YAML indentation must use spaces")
	}
	return errAt(li.lineStart(line), "invalid YAML: %s", problem)
}

// findProblemLine finds the first line L >= from such that the file cut after
// line L fails with the same error: the parser stops at the first bad token,
// so that is the line holding it. Cuts before it parse cleanly or fail
// differently. Binary search keeps it at O(log lines) parses; big files skip it.
func findProblemLine(data []byte, li *lineIndex, from int, want string) int {
	if len(data) > 1<<20 {
		return 0
	}
	same := func(l int) bool {
		var n yaml.Node
		err := yaml.Unmarshal(data[:li.lineEndOffset(l)], &n)
		return err != nil && err.Error() == want
	}
	lo, hi := from, li.lines()
	if !same(hi) {
		return 0
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if same(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// lineIndex converts byte offsets to 1-based line and rune column.
type lineIndex struct {
	file   string
	data   []byte
	starts []int // byte offset of each line's start
}

func newLineIndex(file string, data []byte) *lineIndex {
	starts := make([]int, 1, 64)
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{file: file, data: data, starts: starts}
}

func (li *lineIndex) lines() int {
	n := len(li.starts)
	// A final newline does not start a line of its own.
	if n > 1 && li.starts[n-1] == len(li.data) {
		n--
	}
	return n
}

func (li *lineIndex) pos(off int) Pos {
	if off > len(li.data) {
		off = len(li.data)
	}
	// Binary search for the line holding off.
	lo, hi := 0, len(li.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if li.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return Pos{File: li.file, Line: lo + 1, Col: utf8.RuneCount(li.data[li.starts[lo]:off]) + 1}
}

// lineStart is the first non-blank character of a 1-based line.
func (li *lineIndex) lineStart(line int) Pos {
	if line < 1 {
		line = 1
	}
	if line > len(li.starts) {
		line = len(li.starts)
	}
	off := li.starts[line-1]
	for off < len(li.data) && (li.data[off] == ' ' || li.data[off] == '\t') {
		off++
	}
	if off < len(li.data) && (li.data[off] == '\n' || li.data[off] == '\r') {
		off = li.starts[line-1]
	}
	return li.pos(off)
}

// lineEndOffset is the offset just after the newline that ends a 1-based line.
func (li *lineIndex) lineEndOffset(line int) int {
	if line >= len(li.starts) {
		return len(li.data)
	}
	return li.starts[line]
}

// offset is the byte offset of a 1-based line and rune column.
func (li *lineIndex) offset(line, col int) int {
	if line < 1 || line > len(li.starts) {
		return -1
	}
	off := li.starts[line-1]
	for c := 1; c < col && off < len(li.data) && li.data[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(li.data[off:])
		off += size
	}
	return off
}

// checkExpansion walks the tree once, memoising each node's expanded size and
// depth, so that aliases are counted without being expanded: alias bombs,
// alias cycles and over-deep nesting are refused here, and every later walk
// may follow aliases freely.
func checkExpansion(path string, root *yaml.Node) error {
	type info struct{ size, depth int }
	memo := map[*yaml.Node]info{}
	active := map[*yaml.Node]bool{}
	budget := minAliasBudget + countNodes(root)
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
		in := info{size: 1}
		for _, c := range n.Content {
			ci, err := walk(c, depth+1)
			if err != nil {
				return ci, err
			}
			in.size += ci.size
			if ci.depth+1 > in.depth {
				in.depth = ci.depth + 1
			}
			if in.size > budget {
				p := Pos{File: path, Line: c.Line, Col: c.Column}
				return info{}, errAt(p, "YAML aliases here expand the document by over a million values (an alias bomb?); lore does not expand it")
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
