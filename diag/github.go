package diag

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// GitHubPrinter writes GitHub Actions workflow commands, one annotation per
// diagnostic: `::error file=F,line=L,col=C,title=RULE::MESSAGE`. Info findings
// become notices. Values are escaped as the Actions runner expects (% CR LF in
// the message; also : and , in properties), so a message with a newline or a
// file name with a comma cannot break the command.
type GitHubPrinter struct{}

func init() {
	registerPrinter("github", func(Options) Printer { return GitHubPrinter{} })
}

func githubLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "notice"
}

func (GitHubPrinter) Print(w io.Writer, ds []Diagnostic) error {
	bw := bufio.NewWriter(w)
	for _, d := range ds {
		var props []string
		if d.File != "" {
			props = append(props, "file="+Printable(escapeProperty(filepath.ToSlash(d.File))))
			if d.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", d.Line))
				if d.Column > 0 {
					props = append(props, fmt.Sprintf("col=%d", d.Column))
				}
			}
		}
		props = append(props, "title="+Printable(escapeProperty(d.Rule)))
		fmt.Fprintf(bw, "::%s %s::%s\n", githubLevel(d.Severity), strings.Join(props, ","),
			Printable(escapeData(d.text()+" ["+d.Rule+"]")))
	}
	return bw.Flush()
}

// escapeData escapes a workflow command's message (Printable then escapes
// the other control characters: ESC would colour or move the log).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
