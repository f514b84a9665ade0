package testrun

import (
	"fmt"
	"io"

	"github.com/lorekit/lore/diag"
)

// githubWriter writes GitHub Actions annotations: each failed expectation is
// an error at its line of the test file (shown on the pull request's diff),
// with the --explain reasons and the snapshot diff in its message; then the
// summary as a plain log line.
type githubWriter struct{}

func (githubWriter) Write(w io.Writer, r *Report) error {
	ds := append([]diag.Diagnostic{}, r.Problems...)
	for _, c := range r.Cases {
		switch c.Status {
		case Error:
			ds = append(ds, diag.New(c.ErrorPos, diag.Error, "test", "%s", c.Error))
		case Fail:
			for _, f := range c.Failures {
				msg := fmt.Sprintf("%s: %s", c.Name, f.headline())
				if d := f.details(); d != "" {
					msg += "\n\n" + d
				}
				ds = append(ds, diag.New(f.Pos, diag.Error, f.Kind, "%s", msg))
			}
		}
	}
	if err := (diag.GitHubPrinter{}).Print(w, ds); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, r.Summary())
	return err
}
