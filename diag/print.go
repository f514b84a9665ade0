package diag

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
	"golang.org/x/text/width"
)

// Printer writes diagnostics in one output format. ds is already sorted.
type Printer interface {
	Print(w io.Writer, ds []Diagnostic) error
}

// Options configure printers. Formats that have no use for an option ignore it.
type Options struct {
	// Color turns on ANSI colour in text output; Excerpts the source line
	// and a caret under each finding (with Source). Colour alone implies
	// them: colour is for a reader at a terminal.
	Color, Excerpts bool
	// Source returns line n (1-based) of file without its newline, for the
	// snippet under a text diagnostic; nil means no snippets.
	Source func(file string, line int) (string, bool)
}

// printers maps a --format name to its constructor. Each format's file adds
// itself in an init function, so formats live in their own files.
var printers = map[string]func(Options) Printer{
	"text": func(o Options) Printer { return &TextPrinter{opts: o} },
	"json": func(Options) Printer { return JSONPrinter{} },
}

// registerPrinter adds a format (for printers defined in other files).
func registerPrinter(name string, f func(Options) Printer) { printers[name] = f }

// Formats lists the names NewPrinter accepts, sorted.
func Formats() []string {
	var out []string
	for k := range printers {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// NewPrinter returns the printer for a --format name.
func NewPrinter(format string, opts Options) (Printer, error) {
	f, ok := printers[format]
	if !ok {
		return nil, fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats(), ", "))
	}
	return f(opts), nil
}

// TextPrinter writes `file:line:col: severity: message [rule]`, one per line;
// with colour on, the severity is coloured and the source line follows with a
// caret under the offending value.
type TextPrinter struct{ opts Options }

func (p *TextPrinter) Print(w io.Writer, ds []Diagnostic) error {
	bw := bufio.NewWriter(w)
	mk := func(a ...color.Attribute) *color.Color {
		c := color.New(a...)
		if p.opts.Color {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	bold, faint := mk(color.Bold), mk(color.Faint)
	sevColor := map[Severity]*color.Color{
		Error:   mk(color.FgRed, color.Bold),
		Warning: mk(color.FgYellow, color.Bold),
		Info:    mk(color.FgCyan, color.Bold),
	}
	paint := func(c *color.Color, s string) string {
		if !p.opts.Color {
			return s // what c.Sprint gives with colour off, without its fmt call
		}
		return c.Sprint(s)
	}
	var cur lineCursor
	for _, d := range ds {
		where := d.Pos().String()
		sc := sevColor[d.Severity]
		if sc == nil {
			sc = bold
		}
		for _, part := range [...]string{paint(bold, Printable(where)), ": ", paint(sc, d.Severity.String()), ": ",
			Printable(d.text()), " ", paint(faint, "["+Printable(d.Rule)+"]"), "\n"} {
			bw.WriteString(part)
		}
		if (p.opts.Color || p.opts.Excerpts) && p.opts.Source != nil && d.Line > 0 {
			if off, ok := cur.seek(p.opts.Source, d.File, d.Line, d.Column); ok {
				src, caret := snippetAt(cur.text, off)
				fmt.Fprintf(bw, "  %s\n  %s\n", src, sc.Sprint(caret))
			}
		}
	}
	return bw.Flush()
}

// excerptWidth is the most terminal cells a source excerpt takes, and
// excerptBefore how many characters before the column it keeps when the line
// is longer: a minified file is one line of megabytes, which every finding
// on it would otherwise print whole.
const (
	excerptWidth  = 120
	excerptBefore = 40
)

// lineCursor finds the byte offset of a rune column in the line being
// printed. Diagnostics come sorted by file, line and column, so it moves
// forward along a line and costs linear time for all the findings on it.
type lineCursor struct {
	file     string
	line     int
	text     string
	ok       bool
	col, off int
	fetched  bool
}

// seek loads the source line when the diagnostic is on another line, and
// returns the byte offset of col (the line's end when col is past it).
func (c *lineCursor) seek(source func(string, int) (string, bool), file string, line, col int) (int, bool) {
	if !c.fetched || c.file != file || c.line != line {
		c.file, c.line, c.fetched = file, line, true
		c.text, c.ok = source(file, line)
		c.text = blankControls(strings.TrimRight(c.text, "\r"))
		c.col, c.off = 1, 0
	}
	if !c.ok {
		return 0, false
	}
	col = max(col, 1)
	if col < c.col { // unsorted input: start the line again
		c.col, c.off = 1, 0
	}
	for c.col < col && c.off < len(c.text) {
		_, size := utf8.DecodeRuneInString(c.text[c.off:])
		c.off += size
		c.col++
	}
	return c.off, true
}

// snippet returns the source line (tabs kept, so the caret line can copy
// them) and a `^~~~` line under the token that starts at the 1-based rune
// column col. Wide (CJK) characters take two cells, so the caret pads them
// twice. A line over excerptWidth is cut around the column, "…" marking each
// cut side.
func snippet(line string, col int) (string, string) {
	var c lineCursor
	off, _ := c.seek(func(string, int) (string, bool) { return line, true }, "", 1, col)
	return snippetAt(c.text, off)
}

// snippetAt is snippet with the column given as a byte offset in line.
func snippetAt(line string, at int) (string, string) {
	text, at := excerpt(line, at)
	var b strings.Builder
	for _, r := range text[:at] {
		switch {
		case r == '\t':
			b.WriteByte('\t')
		case isWide(r):
			b.WriteString("  ")
		default:
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	rest := []rune(strings.TrimSuffix(text[at:], ellipsis))
	n := tokenLen(rest)
	for i := 1; i < n && i < len(rest); i++ {
		if isWide(rest[i]) {
			b.WriteString("~~")
		} else {
			b.WriteByte('~')
		}
	}
	if len(rest) > 0 && isWide(rest[0]) {
		b.WriteByte('~')
	}
	return text, b.String()
}

const ellipsis = "…"

// excerpt returns line, or for a line wider than excerptWidth a window of it
// around the byte offset at (excerptBefore characters before it, then as many
// after as fit, more before when the line ends first), with "…" on each cut
// side; and the offset of at in what it returns.
func excerpt(line string, at int) (string, int) {
	if len(line) <= excerptWidth { // no wider than its bytes
		return line, at
	}
	from, to := window(line, at, excerptWidth-2) // room for both marks
	if from == 0 || to == len(line) {
		// One side reaches the line's end: one mark, one more cell.
		if f, t := window(line, at, excerptWidth-1); f == 0 || t == len(line) {
			from, to = f, t
		}
	}
	if from == 0 && to == len(line) {
		return line, at
	}
	out, caret := line[from:to], at-from
	if from > 0 {
		out, caret = ellipsis+out, caret+len(ellipsis)
	}
	if to < len(line) {
		out += ellipsis
	}
	return out, caret
}

// window is the byte range of line shown around at in budget cells.
func window(line string, at, budget int) (from, to int) {
	cells := func(r rune) int {
		if isWide(r) {
			return 2
		}
		return 1
	}
	from, to = at, at
	for n := 0; n < excerptBefore && from > 0; n++ {
		r, size := utf8.DecodeLastRuneInString(line[:from])
		from -= size
		budget -= cells(r)
	}
	for to < len(line) {
		r, size := utf8.DecodeRuneInString(line[to:])
		if cells(r) > budget {
			break
		}
		to += size
		budget -= cells(r)
	}
	for from > 0 {
		r, size := utf8.DecodeLastRuneInString(line[:from])
		if cells(r) > budget {
			break
		}
		from -= size
		budget -= cells(r)
	}
	return from, to
}

// tokenLen is the length in runes of the value starting the text: a quoted
// string to its closing quote, else up to a separator or a comment.
func tokenLen(rs []rune) int {
	if len(rs) == 0 {
		return 1
	}
	if q := rs[0]; q == '"' || q == '\'' {
		for i := 1; i < len(rs); i++ {
			if rs[i] == '\\' && q == '"' {
				i++
				continue
			}
			if rs[i] == q {
				return i + 1
			}
		}
		return len(rs)
	}
	if rs[0] == '[' || rs[0] == '{' {
		return 1
	}
	end := len(rs)
	for i, r := range rs {
		if r == ',' || r == ']' || r == '}' || (r == '#' && i > 0 && rs[i-1] == ' ') || (r == ':' && (i+1 == len(rs) || rs[i+1] == ' ')) {
			end = i
			break
		}
	}
	for end > 1 && (rs[end-1] == ' ' || rs[end-1] == '\t') {
		end--
	}
	return max(end, 1)
}

func isWide(r rune) bool {
	if r < 0x1100 {
		return false
	}
	k := width.LookupRune(r).Kind()
	return k == width.EastAsianWide || k == width.EastAsianFullwidth
}

// JSONPrinter writes SPEC §7's {"diagnostics": [...]} object; an empty list
// is [] (never null), so scripts can always iterate it.
type JSONPrinter struct{}

func (JSONPrinter) Print(w io.Writer, ds []Diagnostic) error {
	if ds == nil {
		ds = []Diagnostic{}
	}
	b, err := json.MarshalIndent(struct {
		Diagnostics []Diagnostic `json:"diagnostics"`
	}{ds}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Summary is the closing line of text output, e.g. "2 errors, 1 warning in 3
// files"; "no problems in 3 files" when ds is empty.
func Summary(ds []Diagnostic, files int) string {
	e, wn, in := Count(ds)
	var parts []string
	plural := func(n int, word string) {
		if n == 0 {
			return
		}
		if n == 1 {
			parts = append(parts, fmt.Sprintf("1 %s", word))
		} else {
			parts = append(parts, fmt.Sprintf("%d %ss", n, word))
		}
	}
	plural(e, "error")
	plural(wn, "warning")
	plural(in, "info")
	what := "no problems"
	if len(parts) > 0 {
		what = strings.Join(parts, ", ")
	}
	unit := "files"
	if files == 1 {
		unit = "file"
	}
	return fmt.Sprintf("%s in %d %s", what, files, unit)
}

// WithText is a Source that gives the lines of text for file name (a file
// read from standard input) and asks next for the others.
func WithText(name string, text []byte, next func(file string, line int) (string, bool)) func(file string, line int) (string, bool) {
	lines := strings.Split(strings.TrimPrefix(string(text), "\xef\xbb\xbf"), "\n")
	return func(file string, line int) (string, bool) {
		if file != name {
			return next(file, line)
		}
		if line < 1 || line > len(lines) || !utf8.ValidString(lines[line-1]) {
			return "", false
		}
		return lines[line-1], true
	}
}

// FileSource returns a Source function that reads files on first use and
// caches their lines. Files over 64 MiB or unreadable give no snippet.
func FileSource() func(file string, line int) (string, bool) {
	// Lines are slices of one string per file: returning one copies nothing.
	cache := map[string][]string{}
	return func(file string, line int) (string, bool) {
		lines, ok := cache[file]
		if !ok {
			if st, err := os.Stat(file); err == nil && st.Mode().IsRegular() && st.Size() <= 64<<20 {
				if data, err := os.ReadFile(file); err == nil {
					lines = strings.Split(strings.TrimPrefix(string(data), "\xef\xbb\xbf"), "\n")
				}
			}
			cache[file] = lines
		}
		if line < 1 || line > len(lines) || !utf8.ValidString(lines[line-1]) {
			return "", false
		}
		return lines[line-1], true
	}
}
