package testrun

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/lorekit/lore/diag"
)

// junitWriter writes JUnit XML, which CI dashboards (GitLab, Jenkins, Azure,
// GitHub test reporters) read: one testsuite per test file, one testcase per
// case, a <failure> with every failed expectation and its reasons, an
// <error> for a case (or test file) that could not run. No timings: the same
// run gives the same bytes.
type junitWriter struct{}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
}

// junitProblem's text is CDATA, where XML allows no control character and
// encoding/xml escapes none: diag.PrintableText escapes them.
type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

func (junitWriter) Write(w io.Writer, r *Report) error {
	doc := junitSuites{Name: "lore test"}
	for _, c := range r.Cases {
		if n := len(doc.Suites); n == 0 || doc.Suites[n-1].Name != c.File {
			doc.Suites = append(doc.Suites, junitSuite{Name: c.File})
		}
		s := &doc.Suites[len(doc.Suites)-1]
		name := c.Name
		if name == "" {
			name = "(test file)"
		}
		jc := junitCase{Name: name, Classname: c.File, File: c.File, Line: c.Pos.Line}
		switch c.Status {
		case Error:
			var b strings.Builder
			fmt.Fprintf(&b, "%s: %s\n", c.ErrorPos, c.Error)
			for _, d := range r.Problems {
				if d.File == c.File || strings.Contains(c.Error, d.File) {
					fmt.Fprintf(&b, "%s: %s\n", d.Pos(), d.Message)
				}
			}
			jc.Error = &junitProblem{Message: c.Error, Type: "error", Text: diag.PrintableText(b.String())}
			s.Errors++
			doc.Errors++
		case Fail:
			var b strings.Builder
			for _, f := range c.Failures {
				fmt.Fprintf(&b, "%s: %s [%s]\n", f.Pos, f.headline(), f.Kind)
				b.WriteString(indent(f.details(), "    "))
			}
			first := c.Failures[0]
			msg := first.headline()
			if len(c.Failures) > 1 {
				msg += fmt.Sprintf(" (and %d more)", len(c.Failures)-1)
			}
			jc.Failure = &junitProblem{Message: msg, Type: first.Kind, Text: diag.PrintableText(b.String())}
			s.Failures++
			doc.Failures++
		}
		s.Tests++
		doc.Tests++
		s.Cases = append(s.Cases, jc)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
