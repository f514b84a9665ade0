package diag

import (
	"bufio"
	"bytes"
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
	// Color turns on ANSI colour and source snippets in text output.
	Color bool
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
	for _, d := range ds {
		where := d.Pos().String()
		sc := sevColor[d.Severity]
		if sc == nil {
			sc = bold
		}
		fmt.Fprintf(bw, "%s: %s: %s %s\n", bold.Sprint(where), sc.Sprint(d.Severity.String()),
			d.Message, faint.Sprint("["+d.Rule+"]"))
		if p.opts.Color && p.opts.Source != nil && d.Line > 0 {
			if line, ok := p.opts.Source(d.File, d.Line); ok {
				src, caret := snippet(line, d.Column)
				fmt.Fprintf(bw, "  %s\n  %s\n", src, sc.Sprint(caret))
			}
		}
	}
	return bw.Flush()
}

// snippet returns the source line (tabs kept, so the caret line can copy them)
// and a `^~~~` line under the token that starts at the 1-based rune column
// col. Wide (CJK) characters take two cells, so the caret pads them twice.
func snippet(line string, col int) (string, string) {
	line = strings.TrimRight(line, "\r")
	runes := []rune(line)
	if col < 1 {
		col = 1
	}
	if col > len(runes)+1 {
		col = len(runes) + 1
	}
	var b strings.Builder
	for _, r := range runes[:col-1] {
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
	rest := runes[col-1:]
	n := tokenLen(rest)
	for i := 1; i < n; i++ {
		if isWide(rest[i]) {
			b.WriteString("~~")
		} else {
			b.WriteByte('~')
		}
	}
	if len(rest) > 0 && isWide(rest[0]) {
		b.WriteByte('~')
	}
	return line, b.String()
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

// FileSource returns a Source function that reads files on first use and
// caches their lines. Files over 64 MiB or unreadable give no snippet.
func FileSource() func(file string, line int) (string, bool) {
	cache := map[string][][]byte{}
	return func(file string, line int) (string, bool) {
		lines, ok := cache[file]
		if !ok {
			if st, err := os.Stat(file); err == nil && st.Mode().IsRegular() && st.Size() <= 64<<20 {
				if data, err := os.ReadFile(file); err == nil {
					data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
					lines = bytes.Split(data, []byte("\n"))
				}
			}
			cache[file] = lines
		}
		if line < 1 || line > len(lines) || !utf8.Valid(lines[line-1]) {
			return "", false
		}
		return string(lines[line-1]), true
	}
}
