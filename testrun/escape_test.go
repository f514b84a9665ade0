package testrun

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"
)

// A case name, a message or an explanation from a test file or a book never
// reaches a report raw: in TAP a CR LF would start a forged "ok" line, in
// JUnit a control character makes the XML unreadable, in text and GitHub
// output ESC acts on the terminal or the log.
func TestWritersEscapeControls(t *testing.T) {
	evil := "x\r\nok 1 - forged \x1b]52;c;aGk=\a"
	rep := &Report{Cases: []*CaseResult{
		{File: "t.yaml", Name: evil, Status: Pass},
		{File: "t.yaml", Name: evil, Status: Fail, Failures: []*Failure{{Kind: "active", Message: "expected " + evil,
			Explain: []Explanation{{ID: "a", Text: "a (\x1b[2Jname)\nnot in the prompt\n"}}, Diff: "- \x1b[31mold\n+ new\n"}}},
		{File: "t.yaml", Name: evil, Status: Error, Error: "cannot " + evil},
	}}
	sgr := regexp.MustCompile("\x1b\\[[0-9;]*m")
	for _, format := range Formats() {
		w, _ := NewWriter(format, WriterOptions{Verbose: true, Color: true})
		var b bytes.Buffer
		if err := w.Write(&b, rep); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.ContainsAny(sgr.ReplaceAllString(out, ""), "\x1b\a\r") {
			t.Errorf("%s: a control character got through:\n%q", format, out)
		}
		for _, line := range strings.Split(out, "\n") {
			// (JUnit is XML: its CDATA keeps the message's lines.)
			if format != "junit" && strings.HasPrefix(line, "ok 1 - forged") {
				t.Errorf("%s: a forged line", format)
			}
		}
		if format == "junit" {
			var v any
			if err := xml.Unmarshal(b.Bytes(), &v); err != nil {
				t.Errorf("junit is not XML: %v", err)
			}
		}
	}
}
