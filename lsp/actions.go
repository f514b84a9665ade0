package lsp

import (
	"path/filepath"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/lint"
	"github.com/lorekit/lore/schema"
)

// fixEdit is the edit lint --fix makes to file for the findings ds (all on
// that file), as one TextEdit of the file's text; false when there is none
// (a foreign file, or a fix the fixer refuses as unsafe).
func (a *analysis) fixEdit(file string, ds []diag.Diagnostic) (protocol.TextEdit, bool) {
	t := a.text(file)
	if t == nil || !a.isLoreFile(file) {
		return protocol.TextEdit{}, false
	}
	req := lint.NewFixRequests(a.book, ds)[file]
	if len(req) == 0 {
		return protocol.TextEdit{}, false
	}
	var entries []*schema.Entry
	for _, e := range a.book.Entries {
		if e.Pos.File == file {
			entries = append(entries, e)
		}
	}
	res, err := lint.FixFile(file, []byte(t.s), entries, req)
	if err != nil {
		return protocol.TextEdit{}, false
	}
	return t.edit(string(res.Out))
}

// codeActions are the quick fixes for the fixable findings on file whose
// range meets r, and one action fixing them all in the file.
func (a *analysis) codeActions(file string, r protocol.Range) []protocol.CodeAction {
	if a.book == nil {
		return nil
	}
	var all []diag.Diagnostic
	var out []protocol.CodeAction
	quick := protocol.CodeActionKindQuickFix
	for _, d := range a.diags {
		if d.File != file || !lint.Fixable(d) {
			continue
		}
		all = append(all, d)
		pd := a.toLSP(d)
		if !overlaps(pd.Range, r) {
			continue
		}
		ed, ok := a.fixEdit(file, []diag.Diagnostic{d})
		if !ok {
			continue
		}
		pref := true
		out = append(out, protocol.CodeAction{
			Title: "Fix: " + d.Message, Kind: &quick, Diagnostics: []protocol.Diagnostic{pd}, IsPreferred: &pref,
			Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{pathToURI(file): {ed}}},
		})
	}
	if len(all) > 1 {
		if ed, ok := a.fixEdit(file, all); ok {
			kind := protocol.CodeActionKind("source.fixAll.lore")
			out = append(out, protocol.CodeAction{
				Title: "Fix all mechanical problems in " + filepath.Base(file) + " (lore lint --fix)", Kind: &kind,
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{pathToURI(file): {ed}}},
			})
		}
	}
	return out
}

func overlaps(a, b protocol.Range) bool {
	before := func(x, y protocol.Position) bool {
		return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character
	}
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// format is lore fmt's layout of file, as edits; nil when it is already in
// it, an error when fmt refuses (a foreign file, errors, YAML anchors).
func (a *analysis) format(file string) ([]protocol.TextEdit, error) {
	t := a.text(file)
	if t == nil || !a.isLoreFile(file) {
		return nil, errNotLore
	}
	doc, err := schema.ParseDoc(file, []byte(t.s))
	if err != nil {
		return nil, err
	}
	role := canon.RoleAuto
	if file != a.path {
		role = canon.RoleEntries
		if contains(manifestNames, filepath.Base(file)) {
			role = canon.RoleManifest
		}
	}
	_, out, err := canon.FormatDocBytes(doc, []byte(t.s), role)
	if err != nil {
		return nil, err
	}
	ed, ok := t.edit(string(out))
	if !ok {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{ed}, nil
}

type lspError string

func (e lspError) Error() string { return string(e) }

const errNotLore = lspError("lore fmt formats lore's own files only; import a foreign file first (lore import)")
