package diag

import (
	"bytes"
	"testing"
)

// sampleDiagnostics covers every severity, a position-less finding, a file name
// and messages with characters that GitHub annotations must escape.
func sampleDiagnostics() []Diagnostic {
	return []Diagnostic{
		{File: "book/entries/places.yaml", Line: 5, Column: 14, Severity: Warning, Rule: "keyword-collision",
			Message: `keyword "tavern" is also on entry "sleeping-stag" at book/entries/places.yaml:5: the two entries always fire together`},
		{File: "book/entries/odd, name.yaml", Line: 2, Column: 1, Severity: Error, Rule: "unreachable-entry",
			Message: "100% unreachable:\nline two\r"},
		{File: "book/lorebook.yaml", Line: 0, Column: 0, Severity: Info, Rule: "whole-word-cjk", Message: "no line"},
		{Severity: Error, Rule: "schema", Message: "no file at all"},
	}
}

func TestSARIFGolden(t *testing.T) {
	p := &SARIFPrinter{Version: "test", Rules: []RuleInfo{
		{ID: "keyword-collision", Severity: Warning, Description: "one keyword on several entries",
			Help: "Keep the keyword on one entry.", HelpURI: "https://github.com/lorekit/lore/blob/main/docs/rules.md#keyword-collision"},
		{ID: "unreachable-entry", Severity: Error, Description: "an entry that can never be sent"},
	}}
	var b bytes.Buffer
	if err := p.Print(&b, sampleDiagnostics()); err != nil {
		t.Fatal(err)
	}
	printGolden(t, "sample.sarif", b.Bytes())
}

func TestSARIFEmptyAndRegistered(t *testing.T) {
	pr, err := NewPrinter("sarif", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := pr.Print(&b, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte(`"results": []`)) || !bytes.Contains(b.Bytes(), []byte(`"version": "2.1.0"`)) {
		t.Errorf("empty SARIF log lacks results [] or version:\n%s", b.String())
	}
}

func TestGitHubGolden(t *testing.T) {
	pr, err := NewPrinter("github", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := pr.Print(&b, sampleDiagnostics()); err != nil {
		t.Fatal(err)
	}
	printGolden(t, "sample.github", b.Bytes())
}

func TestGitHubEscaping(t *testing.T) {
	for _, tc := range []struct{ in, data, prop string }{
		{"a%b", "a%25b", "a%25b"},
		{"a\nb\r", "a%0Ab%0D", "a%0Ab%0D"},
		{"x:y,z", "x:y,z", "x%3Ay%2Cz"},
	} {
		if got := escapeData(tc.in); got != tc.data {
			t.Errorf("escapeData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := escapeProperty(tc.in); got != tc.prop {
			t.Errorf("escapeProperty(%q) = %q, want %q", tc.in, got, tc.prop)
		}
	}
}
