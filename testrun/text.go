package testrun

import (
	"bufio"
	"fmt"
	"io"

	"github.com/lorekit/lore/diag"
)

// textWriter prints what a person reads in a terminal or a CI log: the
// problems with the inputs, then each case that did not pass with each
// failed expectation as file:line:col, the --explain reasons of the entries
// involved and the diff of a snapshot, then the snapshots -u wrote, then the
// summary ("12 passed, 1 failed").
type textWriter struct{ o WriterOptions }

func (t textWriter) Write(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	pr, err := diag.NewPrinter("text", diag.Options{Color: t.o.Color, Excerpts: t.o.Excerpts, Source: t.o.Source})
	if err != nil {
		return err
	}
	if err := pr.Print(bw, r.Problems); err != nil {
		return err
	}
	if len(r.Problems) > 0 {
		bw.WriteString("\n")
	}
	for _, c := range r.Cases {
		switch c.Status {
		case Pass:
			if t.o.Verbose {
				fmt.Fprintf(bw, "%s: %s (%s)\n", t.paint("1;32", "--- PASS"), diag.Printable(c.label()), c.Engine)
			}
			continue
		case Error:
			fmt.Fprintf(bw, "%s: %s\n", t.paint("1;31", "--- ERROR"), diag.Printable(c.label()))
			if err := pr.Print(bw, []diag.Diagnostic{diag.New(c.ErrorPos, diag.Error, "test", "%s", c.Error)}); err != nil {
				return err
			}
			bw.WriteString("\n")
			continue
		}
		fmt.Fprintf(bw, "%s: %s (%s)\n", t.paint("1;31", "--- FAIL"), diag.Printable(c.label()), c.Engine)
		// An entry involved in several failures of one render is explained
		// under the first.
		type render struct{ turn, run int }
		told := map[render]map[string]bool{}
		for _, f := range c.Failures {
			d := diag.New(f.Pos, diag.Error, f.Kind, "%s", f.headline())
			if err := pr.Print(bw, []diag.Diagnostic{d}); err != nil {
				return err
			}
			k := render{f.Turn, f.Run}
			if told[k] == nil {
				told[k] = map[string]bool{}
			}
			for _, x := range f.Explain {
				if !told[k][x.ID] {
					told[k][x.ID] = true
					bw.WriteString(indent(diag.PrintableText(x.Text), "    "))
				}
			}
			bw.WriteString(indent(diag.PrintableText(f.Diff), "    "))
			bw.WriteString(indent(f.findingsText(), "    "))
		}
		bw.WriteString("\n")
	}
	for _, s := range r.Snapshots {
		switch s.Status {
		case "written":
			fmt.Fprintf(bw, "new snapshot: %s\n", diag.Printable(s.Path))
		case "updated":
			fmt.Fprintf(bw, "updated snapshot: %s\n", diag.Printable(s.Path))
		case "obsolete":
			fmt.Fprintf(bw, "obsolete snapshot: %s (no case names it: delete it, or name it again)\n", diag.Printable(s.Path))
		}
	}
	fmt.Fprintln(bw, r.Summary())
	return bw.Flush()
}

// paint wraps s in an ANSI colour when colour is on.
func (t textWriter) paint(code, s string) string {
	if !t.o.Color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}
