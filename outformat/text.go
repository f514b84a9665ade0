package outformat

import (
	"regexp"
	"strings"
)

// Marker is a ${…} (a description the model replaces with content, or the
// name of a part of the format) or a $(…) (an instruction the model obeys and
// does not print) in a template text.
type Marker struct {
	Open  string // "${" or "$("
	Close byte   // '}' or ')'
	At    int    // offset of the '$'
	End   int    // offset just after the closing bracket; -1 when never closed
}

// Inner is the text between the marker's brackets.
func (m Marker) Inner(s string) string {
	if m.End < 0 {
		return s[m.At+2:]
	}
	return s[m.At+2 : m.End-1]
}

// Text is a template text read for its markers.
type Text struct {
	// Markers are the outermost markers that close, in order. Inside a
	// marker, brackets of its own kind nest: ${a {b} c} is one marker.
	Markers []Marker
	// Unclosed is the outermost marker that is never closed (everything after
	// it is inside it), nil when every marker closes.
	Unclosed *Marker
	// Outside is the text with every marker blanked out by spaces, byte for
	// byte, so offsets in it are offsets in the text: tags are looked for in
	// it, since a <tag> inside a description is not printed as a tag.
	Outside string
}

// ScanText finds the markers of a template text.
func ScanText(s string) *Text {
	type opener struct {
		close  byte
		at     int
		marker bool // ${ or $(, not a plain bracket inside one
	}
	t := &Text{}
	var stack []opener
	var outside strings.Builder
	outside.Grow(len(s))
	for i := 0; i < len(s); i++ {
		ch := s[i]
		inside := len(stack) > 0
		switch {
		case ch == '$' && i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '('):
			cl := byte('}')
			if s[i+1] == '(' {
				cl = ')'
			}
			stack = append(stack, opener{close: cl, at: i, marker: true})
			outside.WriteString("  ")
			i++
			continue
		case inside && (ch == '{' || ch == '('):
			cl := byte('}')
			if ch == '(' {
				cl = ')'
			}
			if cl == stack[len(stack)-1].close {
				stack = append(stack, opener{close: cl, at: i})
			}
		case inside && ch == stack[len(stack)-1].close:
			if len(stack) == 1 {
				o := stack[0]
				t.Markers = append(t.Markers, Marker{Open: s[o.at : o.at+2], Close: o.close, At: o.at, End: i + 1})
			}
			stack = stack[:len(stack)-1]
			outside.WriteByte(' ')
			continue
		}
		if len(stack) > 0 {
			outside.WriteByte(' ')
		} else {
			outside.WriteByte(ch)
		}
	}
	for _, o := range stack {
		if o.marker {
			t.Unclosed = &Marker{Open: s[o.at : o.at+2], Close: o.close, At: o.at, End: -1}
			break
		}
	}
	t.Outside = outside.String()
	return t
}

// Tag is an opening or closing <tag> of a text.
type Tag struct {
	Name    string
	At, End int // the byte range of the tag, from '<' to after '>'
	Closing bool
}

// placeholderTags are single-word tags creators write as names, not as open/close
// pairs (<user> stands for the player), and the examples separator.
var placeholderTags = map[string]bool{"user": true, "char": true, "bot": true, "start": true}

// IsPlaceholderTag says whether <name> stands for a name (<user>, <char>,
// <bot>) or is the examples separator (<START>), not one end of a pair.
func IsPlaceholderTag(name string) bool { return placeholderTags[strings.ToLower(name)] }

var tagRe = regexp.MustCompile(`<(/?)([\p{L}_][\p{L}\p{N}_.:-]*)(?:\s[^<>]*)?(/?)>`)

// Tags lists the opening and closing tags of text, in order, leaving out
// self-closing tags (<br/>) and placeholder tags (<user>). For a template
// text, pass Text.Outside.
func Tags(text string) []Tag {
	var out []Tag
	for _, m := range tagRe.FindAllStringSubmatchIndex(text, -1) {
		closing := m[3] > m[2]
		selfClosing := m[7] > m[6]
		name := text[m[4]:m[5]]
		if selfClosing || IsPlaceholderTag(name) {
			continue
		}
		out = append(out, Tag{Name: name, At: m[0], End: m[1], Closing: closing})
	}
	return out
}

// TagProblem is a tag that has no partner.
type TagProblem struct {
	Tag Tag
	// Unopened: Tag is a closing tag with no opening tag before it. Else Tag
	// is an opening tag never closed: Before is the closing tag of an outer
	// tag that came while it was still open, nil when it is open at the end.
	Unopened bool
	Before   *Tag
}

// PairTags pairs opening and closing tags by name, innermost first, and lists
// the tags left without a partner in the order they are found: a closing
// tag with no opening one when it comes; the tags still open inside an outer
// tag when that tag closes; the tags still open at the end.
func PairTags(tags []Tag) []TagProblem {
	var out []TagProblem
	var open []Tag
	for i, t := range tags {
		if !t.Closing {
			open = append(open, t)
			continue
		}
		j := len(open) - 1
		for j >= 0 && open[j].Name != t.Name {
			j--
		}
		if j < 0 {
			out = append(out, TagProblem{Tag: t, Unopened: true})
			continue
		}
		for _, o := range open[j+1:] {
			out = append(out, TagProblem{Tag: o, Before: &tags[i]})
		}
		open = open[:j]
	}
	for _, o := range open {
		out = append(out, TagProblem{Tag: o})
	}
	return out
}
