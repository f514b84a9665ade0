package lsp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// macroAt is the body of the {{macro}} under a position of file (what is
// between the braces), read from the line's text.
func (a *analysis) macroAt(file string, line, col int) (string, bool) {
	t := a.text(file)
	if t == nil || line <= 0 {
		return "", false
	}
	rs := []rune(t.line(line - 1))
	i := col - 1
	if i < 0 || i >= len(rs) {
		return "", false
	}
	s := string(rs)
	at := len(string(rs[:i]))
	open := strings.LastIndex(s[:min(at+2, len(s))], "{{")
	if open < 0 {
		return "", false
	}
	end := strings.Index(s[open:], "}}")
	if end < 0 || open+end+2 <= at {
		return "", false
	}
	return s[open+2 : open+end], true
}

// getvar is the variable id of a {{getvar::id}} body.
func getvar(body string) (string, bool) {
	name, arg, ok := strings.Cut(body, "::")
	if !ok || !strings.EqualFold(strings.TrimSpace(name), "getvar") {
		return "", false
	}
	return strings.TrimSpace(arg), true
}

// hover is the Markdown shown for a position, "" for nothing.
func (a *analysis) hover(file string, line, col int) string {
	if a.book == nil {
		return ""
	}
	if id, ok := a.variableAt(file, line, col); ok {
		return a.variableHover(id)
	}
	if body, ok := a.macroAt(file, line, col); ok {
		in := &render.Input{Book: a.book, Vars: a.varValues(), Settings: a.settings}
		out := render.NewMacros(in).Expand("{{" + body + "}}")
		return fmt.Sprintf("**macro** `{{%s}}` → `%s`", body, out)
	}
	if e, kw := a.keywordAt(file, line, col); kw != nil {
		return a.keywordHover(e, kw)
	}
	if m := a.mentionAt(file, line, col); m != nil {
		return a.keywordHover(a.book.Entries[m.owner], m.kw)
	}
	if e := a.entryAt(file, line); e != nil {
		for _, f := range []string{"id", "name"} {
			if p, ok := e.Fields[f]; ok && a.valuePlace(p).holds(file, line, col) {
				return a.entryHover(e)
			}
		}
	}
	return ""
}

func (a *analysis) varValues() map[string]any {
	if a.vars == nil {
		return nil
	}
	return a.vars.Values
}

func (a *analysis) varsSource() string {
	if a.vars != nil {
		return " (values from " + a.vars.Path + ")"
	}
	return " (the manifest's defaults; set `vars` in the server's settings for a variables file)"
}

func (a *analysis) variableHover(id string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**variable** `%s`", id)
	v := a.book.Manifest.Variable(id)
	if v != nil && v.Type != "" {
		fmt.Fprintf(&b, " (%s)", v.Type)
	}
	b.WriteString("\n\n")
	cur := render.CurrentValues(a.book, a.varValues())
	if val, ok := cur[id]; ok {
		fmt.Fprintf(&b, "value: `%s`%s", render.FormatValue(val), a.varsSource())
	} else {
		b.WriteString("no value: not declared in the manifest's variables, nor in the variables file")
	}
	if v != nil && v.Description != "" {
		b.WriteString("\n\n" + v.Description)
	}
	return b.String()
}

// keywordHover says what a keyword of entry e activates, which other
// entries' content holds it (recursion), and what lint says of it.
func (a *analysis) keywordHover(e *schema.Entry, kw *schema.Keyword) string {
	a.index()
	g := match.Normalize(kw.Text)
	var owners []string
	for _, x := range a.book.Entries {
		for _, k := range x.Keywords {
			if match.Normalize(k.Text) == g {
				owners = append(owners, entryTitle(x))
				break
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**keyword** `%s` of entry %s\n\n", kw.Text, entryTitle(e))
	fmt.Fprintf(&b, "activates: %s\n\n", strings.Join(owners, ", "))
	var in []string
	seen := map[int]bool{}
	for _, m := range a.mentions {
		if m.group == g && !seen[m.from] {
			seen[m.from] = true
			in = append(in, entryTitle(a.book.Entries[m.from]))
		}
	}
	switch {
	case len(in) == 0:
		b.WriteString("in no other entry's content\n\n")
	case a.descr != nil && !a.descr.Recursive:
		fmt.Fprintf(&b, "in the content of %s (recursion is off for %s)\n\n", strings.Join(in, ", "), render.ProfileOf(a.judge).Says())
	default:
		fmt.Fprintf(&b, "in the content of %s, which activate it by recursion\n\n", strings.Join(in, ", "))
	}
	inWords := "does not fire inside other words"
	for _, d := range a.diags {
		if d.Rule == "keyword-in-words" && d.File == kw.Pos.File && d.Line == kw.Pos.Line && d.Column == kw.Pos.Col {
			inWords = d.Message
		}
	}
	if e.MatchWholeWords {
		inWords = "matches whole words only (matchWholeWords)"
	}
	b.WriteString(inWords)
	return b.String()
}

// entryHover says where the entry lands, what it costs and what can bring it
// in, by the engine the book is judged by.
func (a *analysis) entryHover(e *schema.Entry) string {
	a.index()
	idx := -1
	for i, x := range a.book.Entries {
		if x == e {
			idx = i
		}
	}
	prof := render.ProfileOf(a.judge)
	var b strings.Builder
	fmt.Fprintf(&b, "**entry** %s — %s, by %s\n\n", entryTitle(e), e.Section, prof.Says())
	if a.descr != nil && idx >= 0 && idx < len(a.descr.Fates) {
		f := a.descr.Fates[idx]
		if f.Sent() {
			fmt.Fprintf(&b, "lands: %s\n\n", f.Placement.Text())
		} else {
			fmt.Fprintf(&b, "never sent: %s\n\n", f.Never.Text())
		}
		fmt.Fprintf(&b, "gets in: %s\n\n", activationWords(f.Activation))
	}
	if a.counter != nil {
		fmt.Fprintf(&b, "cost: %d tokens (%s)\n\n", a.counter.Count(e.Content), a.counter.Name())
	}
	var kws []string
	for _, k := range e.Keywords {
		kws = append(kws, "`"+k.Text+"`")
	}
	if len(kws) > 0 {
		fmt.Fprintf(&b, "keywords: %s\n\n", strings.Join(kws, ", "))
	}
	from := map[string]bool{}
	for _, m := range a.mentions {
		if m.owner == idx {
			from[entryTitle(a.book.Entries[m.from])] = true
		}
	}
	if len(from) > 0 {
		names := make([]string, 0, len(from))
		for n := range from {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "brought in by the content of: %s", strings.Join(names, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}

func activationWords(a string) string {
	switch a {
	case "always":
		return "always (whenever its conditions hold)"
	case "keywords":
		return "by its keywords"
	case "conditions":
		return "by its conditions alone"
	case "recursion":
		return "only when another entry's content brings it in"
	case "never":
		return "never"
	}
	return a
}
