package lsp

import (
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// mention is a keyword of one entry found in the content of an entry: what
// recursion would activate, and what definition and references follow.
type mention struct {
	from       int // the entry whose content holds it
	start, end int // byte offsets in that content
	owner      int // the entry the keyword belongs to
	kw         *schema.Keyword
	group      string // the keyword normalised: keywords alike share it
}

// index builds, once per analysis, the mentions (one automaton over every
// keyword of the book, run once over each entry's content, with lore's
// matching), the engine's description of the book and the token counter.
func (a *analysis) index() {
	a.once.Do(func() {
		if a.book == nil {
			return
		}
		var ps []match.Pattern
		var kws []*schema.Keyword
		for i, e := range a.book.Entries {
			for k := range e.Keywords {
				kw := &e.Keywords[k]
				ps = append(ps, match.Pattern{Text: kw.Text, WholeWords: e.MatchWholeWords, Owner: i})
				kws = append(kws, kw)
			}
		}
		m, _ := match.Compile(ps)
		for i, e := range a.book.Entries {
			if e.Content == "" {
				continue
			}
			for _, h := range m.Find(e.Content) {
				p := ps[h.Pattern]
				if p.Owner == i {
					continue
				}
				a.mentions = append(a.mentions, mention{from: i, start: h.Start, end: h.End, owner: p.Owner,
					kw: kws[h.Pattern], group: match.Normalize(p.Text)})
			}
		}
		a.counter, _ = tokenize.Get(a.settings.Tokenizer)
		if d, ok := a.judge.(render.Describer); ok {
			in := &render.Input{Book: a.book, Settings: a.settings, Counter: a.counter, EngineSettings: a.settings.Engines[a.judge.Name()]}
			render.DecodeEngineSettings(a.judge, in)
			a.descr = d.Describe(in)
		}
	})
}

// place is a range of lore positions in one file: from start to end, end
// exclusive (same line, or the line after for a value at a line's end).
type place struct {
	file        string
	line, col   int
	eline, ecol int
}

func (p place) holds(file string, line, col int) bool {
	if file != p.file {
		return false
	}
	if line < p.line || line > p.eline {
		return false
	}
	if line == p.line && col < p.col {
		return false
	}
	return line != p.eline || col < p.ecol || (p.eline == p.line && p.ecol == p.col && col == p.col)
}

// valuePlace is the place of the value written at pos: its span on its line.
func (a *analysis) valuePlace(pos schema.Pos, quoted ...string) place {
	p := place{file: pos.File, line: pos.Line, col: pos.Col, eline: pos.Line, ecol: pos.Col}
	if t := a.text(pos.File); t != nil && pos.Line > 0 {
		p.ecol = pos.Col + t.span(pos.Line-1, pos.Col, quoted)
	}
	return p
}

// mentionPlace is where a mention is in its entry's file.
func (a *analysis) mentionPlace(m *mention) place {
	e := a.book.Entries[m.from]
	s, x := e.PosInContent(m.start), e.PosInContent(m.end)
	if x.Line != s.Line || x.Col <= s.Col {
		// A position map that cannot say where the end is (a value
		// folded by YAML): the keyword's length from the start.
		x = s
		x.Col = s.Col + len([]rune(e.Content[m.start:m.end]))
	}
	return place{file: s.File, line: s.Line, col: s.Col, eline: x.Line, ecol: x.Col}
}

// mentionAt is the mention under a position.
func (a *analysis) mentionAt(file string, line, col int) *mention {
	a.index()
	for i := range a.mentions {
		m := &a.mentions[i]
		if a.book.Entries[m.from].Pos.File == file && a.mentionPlace(m).holds(file, line, col) {
			return m
		}
	}
	return nil
}

// keywordAt is the keyword (and its entry) written under a position.
func (a *analysis) keywordAt(file string, line, col int) (*schema.Entry, *schema.Keyword) {
	e := a.entryAt(file, line)
	if e == nil {
		return nil, nil
	}
	for _, list := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
		for k := range list {
			if a.valuePlace(list[k].Pos).holds(file, line, col) {
				return e, &list[k]
			}
		}
	}
	return nil, nil
}

// variableAt is the variable id under a position: a condition's variableId
// or a {{getvar::id}} in an entry's content.
func (a *analysis) variableAt(file string, line, col int) (string, bool) {
	e := a.entryAt(file, line)
	if e == nil {
		return "", false
	}
	for _, c := range e.Conditions {
		if p, ok := c.Fields["variableId"]; ok && a.valuePlace(p).holds(file, line, col) {
			return c.VariableID, true
		}
	}
	if name, ok := a.macroAt(file, line, col); ok {
		if id, isVar := getvar(name); isVar {
			return id, true
		}
	}
	return "", false
}

// definitions are where a position leads: from a keyword in content to the
// entries it activates, from a variable to its declaration.
func (a *analysis) definitions(file string, line, col int) []place {
	if a.book == nil {
		return nil
	}
	if id, ok := a.variableAt(file, line, col); ok {
		if v := a.book.Manifest.Variable(id); v != nil {
			return []place{a.valuePlace(v.Fields["id"])}
		}
		return nil
	}
	if m := a.mentionAt(file, line, col); m != nil {
		var out []place
		seen := map[int]bool{}
		for i := range a.mentions {
			o := &a.mentions[i]
			if o.from == m.from && o.start == m.start && o.end == m.end && !seen[o.owner] {
				seen[o.owner] = true
				out = append(out, a.valuePlace(a.book.Entries[o.owner].FieldPos("id")))
			}
		}
		return out
	}
	return nil
}

// references are the places a keyword is mentioned in other entries'
// content (what recursion would activate its entry from); for an entry's
// id, those of all its keywords.
func (a *analysis) references(file string, line, col int) []place {
	if a.book == nil {
		return nil
	}
	a.index()
	groups := map[string]bool{}
	owner := -1
	if _, kw := a.keywordAt(file, line, col); kw != nil {
		groups[match.Normalize(kw.Text)] = true
	} else if e := a.entryAt(file, line); e != nil && a.valuePlace(e.FieldPos("id")).holds(file, line, col) {
		for i, x := range a.book.Entries {
			if x == e {
				owner = i
			}
		}
	} else {
		return nil
	}
	var out []place
	for i := range a.mentions {
		m := &a.mentions[i]
		if groups[m.group] || m.owner == owner {
			out = append(out, a.mentionPlace(m))
		}
	}
	return dedupe(out)
}

func dedupe(ps []place) []place {
	seen := map[place]bool{}
	out := ps[:0]
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
