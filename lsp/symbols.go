package lsp

import (
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// symbols are the entries of file, one symbol each, named by id with the
// section (and name) as detail, spanning the entry up to the next one.
func (a *analysis) symbols(file string) []protocol.DocumentSymbol {
	t := a.text(file)
	if a.book == nil || t == nil {
		return []protocol.DocumentSymbol{}
	}
	out := []protocol.DocumentSymbol{}
	for _, e := range a.book.Entries {
		if e.Pos.File != file || e.Pos.Line == 0 {
			continue
		}
		detail := e.Section
		if e.Name != "" && e.Name != e.ID {
			detail = e.Name + " · " + e.Section
		}
		start := t.toLSP(e.Pos.Line, e.Pos.Col)
		sel := rangeOf(t, e.FieldPos("id").Line, e.FieldPos("id").Col, "")
		if sel.Start.Line < start.Line || sel == (protocol.Range{}) {
			sel = protocol.Range{Start: start, End: start}
		}
		name := e.ID
		if name == "" {
			name = "(no id)"
		}
		out = append(out, protocol.DocumentSymbol{Name: name, Detail: &detail, Kind: protocol.SymbolKindObject,
			Range: protocol.Range{Start: start, End: t.end()}, SelectionRange: sel})
	}
	// Each entry's range ends where the next one of the file starts.
	for i := 0; i+1 < len(out); i++ {
		next := out[i+1].Range.Start
		if next.Line > out[i].Range.Start.Line {
			prev := t.line(int(next.Line) - 1)
			out[i].Range.End = protocol.Position{Line: next.Line - 1, Character: utf16Col(prev, len([]rune(prev))+1)}
		} else {
			out[i].Range.End = next
		}
		if !inside(out[i].SelectionRange, out[i].Range) {
			out[i].SelectionRange = protocol.Range{Start: out[i].Range.Start, End: out[i].Range.Start}
		}
	}
	return out
}

func inside(r, in protocol.Range) bool { return overlaps(r, in) }
