package formats

import (
	"strings"

	"github.com/lorekit/lore/schema"
)

// EWIJSON, the AI Dungeon script legacy world info with #[...] attributes
// was written for, reads an entry's keys as JavaScript regular expressions,
// each matched case-insensitively (new RegExp(key, 'i')), the comma-separated
// parts joined by AND, everything after the '#' being the attributes
// (Zynj-git/AIDungeon, "EWI - Documentation.txt": "keys utilize RegEx for
// activation with comma ',' functioning as an AND clause and '#' separating
// the meta-info at the end"). So "(Throat of the World|Snow Throat)" means
// either name, and read as text it would never fire. An entry with
// attributes gets its keys as EWIJSON means them: the first part's
// alternatives as keywords when it is only text, groups and |, else the part
// as a /regex/i keyword; each further part as one secondary keyword, all of
// them required (AND_ALL). docs/formats.md has the table.

// maxEWIAlternatives bounds the keywords one key expands to; a key with more
// is kept as a /regex/i keyword.
const maxEWIAlternatives = 32

// maxEWIGroups bounds the nesting of a key's groups that is expanded.
const maxEWIGroups = 16

// ewiPart is one comma-separated part of an EWIJSON key: the texts it
// matches when it is made of text, groups and | alone (alts), else nil and
// the part as a /regex/i keyword.
type ewiPart struct {
	alts  []string
	regex string
}

// parseEWIPart reads one part (its attribute block already taken off). A
// leading backslash before a letter with no escape meaning ("\you"), which
// EWIJSON's documentation uses to keep AI Dungeon's own matcher away, is
// dropped, as JavaScript drops it.
func parseEWIPart(s string) ewiPart {
	s = strings.TrimSpace(s)
	if len(s) > 1 && s[0] == '\\' && isLetter(s[1]) && !strings.ContainsRune("bBdDsSwWnrtfvcxukp", rune(s[1])) {
		s = s[1:]
	}
	p := &altParser{s: s}
	alts, ok := p.alternatives(0)
	if ok && p.i == len(s) {
		var clean []string
		seen := map[string]bool{}
		for _, a := range alts {
			if strings.TrimSpace(a) != a || a == "" {
				ok = false // " religion": the space is meant; a regex says so
				break
			}
			if !seen[a] {
				seen[a] = true
				clean = append(clean, a)
			}
		}
		if ok {
			return ewiPart{alts: clean}
		}
	}
	return ewiPart{regex: "/" + s + "/i"}
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// literal says whether the part is one plain text, read as it is.
func (p ewiPart) literal() bool { return len(p.alts) == 1 }

// keyword is the part as one keyword: its text, or a regex for several.
func (p ewiPart) keyword(raw string) string {
	switch {
	case p.literal():
		return p.alts[0]
	case p.alts != nil:
		return "/" + strings.TrimSpace(raw) + "/i"
	}
	return p.regex
}

// altParser expands text made of characters, ( ) groups and | into the
// texts it matches; any other regular-expression syntax stops it.
type altParser struct {
	s string
	i int
}

// alternatives reads seq ('|' seq)*.
func (p *altParser) alternatives(depth int) ([]string, bool) {
	if depth > maxEWIGroups {
		return nil, false
	}
	var out []string
	for {
		seq, ok := p.sequence(depth)
		if !ok {
			return nil, false
		}
		out = append(out, seq...)
		if len(out) > maxEWIAlternatives {
			return nil, false
		}
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		return out, true
	}
}

// sequence reads (text | '(' alternatives ')')* up to a | or ).
func (p *altParser) sequence(depth int) ([]string, bool) {
	out := []string{""}
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '|' || c == ')':
			return out, true
		case c == '(':
			p.i++
			inner, ok := p.alternatives(depth + 1)
			if !ok || p.i >= len(p.s) || p.s[p.i] != ')' {
				return nil, false
			}
			p.i++
			if len(out)*len(inner) > maxEWIAlternatives {
				return nil, false
			}
			var next []string
			for _, a := range out {
				for _, b := range inner {
					next = append(next, a+b)
				}
			}
			out = next
		case strings.IndexByte(`\.^$*+?[]{}/`, c) >= 0:
			return nil, false
		default:
			j := p.i
			for j < len(p.s) && strings.IndexByte(`|()\.^$*+?[]{}/`, p.s[j]) < 0 {
				j++
			}
			for k := range out {
				out[k] += p.s[p.i:j]
			}
			p.i = j
		}
	}
	return out, true
}

// ewiKeys sets e's keywords from the parts of an EWIJSON key (attribute
// blocks taken off) as EWIJSON reads them, all at the position of the keys
// value. It returns the entry's name: the first alternative, or the first
// part as written when it is a regular expression.
func (im *importer) ewiKeys(e *schema.Entry, parts []schema.Keyword) string {
	if len(parts) == 0 {
		return ""
	}
	first := parseEWIPart(parts[0].Text)
	name := strings.TrimSpace(parts[0].Text)
	e.Keywords = nil
	if first.alts != nil {
		for _, a := range first.alts {
			e.Keywords = append(e.Keywords, schema.Keyword{Text: a, Pos: parts[0].Pos})
		}
		name = first.alts[0]
	} else {
		e.Keywords = []schema.Keyword{{Text: first.regex, Pos: parts[0].Pos}}
	}
	for _, k := range parts[1:] {
		e.SecondaryKeywords = append(e.SecondaryKeywords, schema.Keyword{Text: parseEWIPart(k.Text).keyword(k.Text), Pos: k.Pos})
	}
	if len(e.SecondaryKeywords) > 0 {
		e.SecondaryKeywordLogic = schema.AndAll
		e.Fields["secondaryKeywords"] = parts[1].Pos
		e.Fields["secondaryKeywordLogic"] = parts[1].Pos
	}
	return name
}

// ewiChanged says whether EWIJSON's reading of the parts differs from
// reading each as a plain keyword: a part with alternatives or other
// regular-expression syntax, or more than one part (AND, not OR).
func ewiChanged(parts []string) bool {
	if len(parts) > 1 {
		return true
	}
	for _, p := range parts {
		if q := parseEWIPart(p); !q.literal() || q.alts[0] != strings.TrimSpace(p) {
			return true
		}
	}
	return false
}

// looksLikeAlternatives is a key written as EWIJSON's alternatives, "(a|b)",
// in an entry without attributes, which AI Dungeon reads as text.
func looksLikeAlternatives(k string) bool {
	o := strings.IndexByte(k, '(')
	return o >= 0 && strings.IndexByte(k[o:], '|') > 0 && strings.IndexByte(k[o:], ')') > 0
}
