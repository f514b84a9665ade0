package lsp

import (
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/lint"
	"github.com/lorekit/lore/match"
)

// RulesURL is where codeDescription links a rule id: docs/rules.md's
// section of it (its heading is the id), on the project's repository.
const RulesURL = "https://github.com/lorekit/lore/blob/main/docs/rules.md#"

func pathToURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

func uriToPath(u string) string {
	x, err := url.Parse(u)
	if err != nil || x.Scheme != "file" {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(x.Path))
}

var quotedWord = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)

// rangeOf is the LSP range of the value at a lore position in t: its span
// (the quoted words of msg help find a keyword inside content).
func rangeOf(t *text, line, col int, msg string) protocol.Range {
	if t == nil || line <= 0 {
		return protocol.Range{}
	}
	if col <= 0 {
		col = 1
	}
	var quoted []string
	for _, m := range quotedWord.FindAllStringSubmatch(msg, -1) {
		quoted = append(quoted, m[1])
	}
	n := t.span(line-1, col, quoted)
	return protocol.Range{Start: t.toLSP(line, col), End: t.toLSP(line, col+n)}
}

func (a *analysis) rangeOfPlace(p place) protocol.Range {
	t := a.text(p.file)
	if t == nil {
		return protocol.Range{}
	}
	return protocol.Range{Start: t.toLSP(p.line, p.col), End: t.toLSP(p.eline, p.ecol)}
}

func (a *analysis) location(p place) protocol.Location {
	return protocol.Location{URI: pathToURI(p.file), Range: a.rangeOfPlace(p)}
}

var severities = map[diag.Severity]protocol.DiagnosticSeverity{
	diag.Error: protocol.DiagnosticSeverityError, diag.Warning: protocol.DiagnosticSeverityWarning,
	diag.Info: protocol.DiagnosticSeverityInformation,
}

// toLSP turns one finding into an LSP diagnostic on its file.
func (a *analysis) toLSP(d diag.Diagnostic) protocol.Diagnostic {
	sev := severities[d.Severity]
	if sev == 0 {
		sev = protocol.DiagnosticSeverityHint
	}
	src := "lore"
	out := protocol.Diagnostic{
		Range:    rangeOf(a.text(d.File), d.Line, d.Column, d.Message),
		Severity: &sev,
		Code:     &protocol.IntegerOrString{Value: d.Rule},
		Source:   &src,
		Message:  d.Message,
	}
	if lint.RuleByID(d.Rule) != nil { // load and config findings have no section there
		out.CodeDescription = &protocol.CodeDescription{HRef: RulesURL + d.Rule}
	}
	out.RelatedInformation = a.related(d)
	return out
}

// related is a finding's related places: the one diag.Related holds, and
// for the rules that are about several entries, those entries (the other
// entries of a keyword collision, every hop of a recursion loop), found in
// the book by what the finding names.
func (a *analysis) related(d diag.Diagnostic) []protocol.DiagnosticRelatedInformation {
	var out []protocol.DiagnosticRelatedInformation
	add := func(p place, msg string) {
		if p.file == "" || p.line == 0 {
			return
		}
		out = append(out, protocol.DiagnosticRelatedInformation{Location: a.location(p), Message: msg})
	}
	if r := d.Related; r != nil {
		add(a.valuePlace(r.Pos()), r.Message)
	}
	if a.book == nil {
		return out
	}
	switch d.Rule {
	case "keyword-collision", "keyword-overlap":
		// The keyword at the finding's place, and every other entry's
		// keyword that is the same once normalised.
		kx := a.keywordIndex()
		g, ok := kx.groupAt[d.Pos()]
		if !ok {
			break
		}
		for _, k := range kx.byGroup[g] {
			if k.pos != d.Pos() {
				add(a.valuePlace(k.pos), "also a keyword of entry "+k.entry)
			}
		}
	case "recursion-loop":
		a.loopHops(d, add)
	}
	return out
}

// keywords is every keyword of the book by its position and by its
// normalised text, built once per analysis.
type keywords struct {
	groupAt map[diag.Pos]string
	byGroup map[string][]keywordAt
}

type keywordAt struct {
	pos   diag.Pos
	entry string
}

func (a *analysis) keywordIndex() *keywords {
	a.kwOnce.Do(func() {
		a.kws = &keywords{groupAt: map[diag.Pos]string{}, byGroup: map[string][]keywordAt{}}
		for _, e := range a.book.Entries {
			for _, k := range e.Keywords {
				g := match.Normalize(k.Text)
				a.kws.groupAt[k.Pos] = g
				a.kws.byGroup[g] = append(a.kws.byGroup[g], keywordAt{k.Pos, e.ID})
			}
		}
	})
	return a.kws
}

// loopHops adds, for each hop "A → B (via "word")" of a recursion loop's
// message, the place in A's content where B's keyword is.
func (a *analysis) loopHops(d diag.Diagnostic, add func(place, string)) {
	msg := d.Message
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.Contains(msg, "the shortest cycle") {
		msg = msg[i+2:]
	} else {
		msg = strings.TrimPrefix(msg, "recursion loop: ")
	}
	msg, _, _ = strings.Cut(msg, "; ")
	hops := strings.Split(msg, " → ")
	byID := a.entryIndex()
	for h := 1; h < len(hops); h++ {
		from, okF := byID[strings.Fields(hops[h-1])[0]]
		to, okT := byID[strings.Fields(hops[h])[0]]
		m := quotedWord.FindAllStringSubmatch(hops[h], -1)
		if !okF || !okT || len(m) == 0 {
			continue
		}
		word := m[len(m)-1][1]
		// The word in the content it was found in, matched as lore
		// matches it: one small automaton per hop, not the whole book's.
		e := a.book.Entries[from]
		mt, _ := match.Compile([]match.Pattern{{Text: word}})
		if hits := mt.Find(e.Content); len(hits) > 0 {
			mm := mention{from: from, start: hits[0].Start, end: hits[0].End, owner: to}
			add(a.mentionPlace(&mm), e.ID+" activates "+a.book.Entries[to].ID+" (via \""+word+"\")")
		}
	}
}

// entryIndex is each entry's index by its id, built once per analysis: a
// book has a recursion loop per few hundred entries, so building it per loop
// was quadratic.
func (a *analysis) entryIndex() map[string]int {
	a.idOnce.Do(func() {
		a.ids = make(map[string]int, len(a.book.Entries))
		for i, e := range a.book.Entries {
			a.ids[e.ID] = i
		}
	})
	return a.ids
}

// published is each file's diagnostics of an analysis, for every file the
// book holds (none: an empty list, which clears what was shown), and for
// any other file a finding points at.
func (a *analysis) published() map[string][]protocol.Diagnostic {
	a.pubOnce.Do(func() { a.pub = a.publish() })
	return a.pub
}

func (a *analysis) publish() map[string][]protocol.Diagnostic {
	out := map[string][]protocol.Diagnostic{}
	for _, f := range a.files {
		out[f] = []protocol.Diagnostic{}
	}
	main := a.mainFile()
	for _, d := range a.diags {
		if d.File == "" || d.File == a.path && main != a.path {
			d.File, d.Line, d.Column = main, 0, 0
		}
		if a.text(d.File) == nil {
			if _, ok := out[d.File]; !ok {
				d.File, d.Line, d.Column = main, 0, 0
			}
		}
		out[d.File] = append(out[d.File], a.toLSP(d))
	}
	return out
}

// isEntryFile says a file is one of the book's lore files (fixable and
// formattable), not a foreign one.
func (a *analysis) isLoreFile(p string) bool {
	return a.book != nil && a.book.Format == "lore" && contains(a.book.Files, p)
}
