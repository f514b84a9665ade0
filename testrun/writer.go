package testrun

import (
	"fmt"
	"io"
	"strings"
)

// Writer writes a run's report in one format. Every writer is deterministic:
// the same report gives the same bytes.
type Writer interface {
	Write(w io.Writer, r *Report) error
}

// WriterOptions are what the text writer takes from the command line; the
// machine formats ignore them.
type WriterOptions struct {
	// Color turns on ANSI colour; Excerpts the source line under each
	// failure (colour implies them).
	Color, Excerpts bool
	// Verbose lists the cases that passed too.
	Verbose bool
	// Source returns line n of a file, for the snippet under a failure.
	Source func(file string, line int) (string, bool)
}

// Formats lists the names NewWriter accepts, default first.
func Formats() []string { return []string{"text", "json", "junit", "tap", "github"} }

// NewWriter returns the writer for a --format name.
func NewWriter(format string, o WriterOptions) (Writer, error) {
	switch format {
	case "text", "":
		return textWriter{o}, nil
	case "json":
		return jsonWriter{}, nil
	case "junit":
		return junitWriter{}, nil
	case "tap":
		return tapWriter{}, nil
	case "github":
		return githubWriter{}, nil
	}
	return nil, fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(Formats(), ", "))
}

// label names a result: the case's name, or the test file for a file that
// could not be used.
func (c *CaseResult) label() string {
	if c.Name == "" {
		return c.File
	}
	return c.File + ": " + c.Name
}

// details are the lines under a failure: the --explain text of each entry
// involved, then the snapshot diff.
func (f *Failure) details() string {
	var b strings.Builder
	for _, x := range f.Explain {
		b.WriteString(x.Text)
	}
	if f.Diff != "" {
		b.WriteString(f.Diff)
	}
	b.WriteString(f.findingsText())
	return b.String()
}

// headline is the failure's message, prefixed with its turn and run.
func (f *Failure) headline() string {
	if t := f.Title(); t != "" {
		return t + ": " + f.Message
	}
	return f.Message
}

func indent(s, by string) string {
	if s == "" {
		return ""
	}
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l == "" || l == "\n" {
			b.WriteString(l)
			continue
		}
		b.WriteString(by + l)
	}
	return b.String()
}
