package testrun

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// tapWriter writes TAP version 14 (Test Anything Protocol): one test point
// per case, and under each that did not pass a YAML block with what failed,
// where, what was expected and what happened.
type tapWriter struct{}

type tapFailure struct {
	At       string   `yaml:"at"`
	Kind     string   `yaml:"kind"`
	Message  string   `yaml:"message"`
	Expected string   `yaml:"expected,omitempty"`
	Got      string   `yaml:"got,omitempty"`
	Explain  []string `yaml:"explain,omitempty"`
	Diff     string   `yaml:"diff,omitempty"`
	Findings []string `yaml:"findings,omitempty"`
}

type tapBlock struct {
	Severity string       `yaml:"severity"`
	At       string       `yaml:"at"`
	Message  string       `yaml:"message,omitempty"`
	Failures []tapFailure `yaml:"failures,omitempty"`
}

func (tapWriter) Write(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "TAP version 14\n1..%d\n", len(r.Cases))
	for _, d := range r.Problems {
		fmt.Fprintf(bw, "# %s: %s: %s\n", diag.Printable(d.Pos().String()), d.Severity, diag.Printable(d.Message))
	}
	for i, c := range r.Cases {
		// "#" starts a directive in a test point's description: escape it,
		// and the control characters (a CR LF would start a line of TAP).
		desc := strings.ReplaceAll(diag.Printable(c.label()), "#", `\#`)
		if c.Status == Pass {
			fmt.Fprintf(bw, "ok %d - %s\n", i+1, desc)
			continue
		}
		fmt.Fprintf(bw, "not ok %d - %s\n", i+1, desc)
		b := tapBlock{Severity: "fail", At: c.Pos.String()}
		if c.Status == Error {
			b.Severity, b.At, b.Message = "error", c.ErrorPos.String(), c.Error
		}
		for _, f := range c.Failures {
			tf := tapFailure{At: f.Pos.String(), Kind: f.Kind, Message: f.headline(), Expected: f.Expected, Got: f.Got, Diff: f.Diff}
			for _, x := range f.Explain {
				tf.Explain = append(tf.Explain, strings.TrimSuffix(x.Text, "\n"))
			}
			if s := f.findingsText(); s != "" {
				tf.Findings = strings.Split(strings.TrimSuffix(s, "\n"), "\n")
			}
			b.Failures = append(b.Failures, tf)
		}
		y, err := yaml.Marshal(b)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "  ---\n%s  ...\n", indent(string(y), "  "))
	}
	return bw.Flush()
}
