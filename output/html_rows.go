package output

import (
	"html/template"
	"strings"
)

// leftOutRows writes the rows of the "Not in the prompt" table, one per
// entry left out: in a book of 10,000 entries nearly all of them, and
// html/template, which reflects on every field of every row, spent most of a
// page's time there (lore serve renders the page on every message). The
// markup is the template's, escaped as html/template escapes text and
// quoted attributes; TestLeftOutRowsAsTemplate holds the two together.
func leftOutRows(rows []htmlLeftOut) template.HTML {
	var b strings.Builder
	b.Grow(len(rows) * 192) // a row with one short reason: no copying as it grows
	for _, r := range rows {
		b.WriteString("\n<tr id=\"")
		escapeHTML(&b, r.Anchor)
		b.WriteString("\"><td><b>")
		escapeHTML(&b, r.ID)
		b.WriteString("</b>")
		if r.Name != "" && r.Name != r.ID {
			b.WriteString(" <span class=\"muted\">")
			escapeHTML(&b, r.Name)
			b.WriteString("</span>")
		}
		if r.Pos != "" && r.Pos != "-" {
			b.WriteString("<div class=\"pos\">")
			escapeHTML(&b, r.Pos)
			b.WriteString("</div>")
		}
		b.WriteString("</td><td class=\"nowrap\">")
		escapeHTML(&b, r.Section)
		b.WriteString("</td><td>")
		if len(r.Reasons) > 0 {
			b.WriteString("<ul>")
			for _, x := range r.Reasons {
				b.WriteString("<li>")
				escapeHTML(&b, x)
				b.WriteString("</li>")
			}
			b.WriteString("</ul>")
		} else {
			b.WriteString("<span class=\"muted\">no reason recorded</span>")
		}
		b.WriteString("</td></tr>")
	}
	return template.HTML(b.String())
}

// escapeHTML writes s as html/template writes a string in text or in a
// quoted attribute: NUL becomes U+FFFD, and " & ' + < > character
// references; every other byte, invalid UTF-8 included, is kept.
func escapeHTML(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var repl string
		switch s[i] {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(repl)
		last = i + 1
	}
	b.WriteString(s[last:])
}
