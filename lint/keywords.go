package lint

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// shared holds what several rules need, built at most once per run.
type shared struct {
	kw      *keywordIndex
	macros  *render.Macros
	sizing  *sizing
	fits    *bool // fitsByBytes's answer
	counter tokenize.Counter
	graph   *triggerGraph
	words   *words
	langs   *bookLanguages
	classes *[256]uint8 // byteClasses
	// inside is insideWordGroups', for scripts with spaces ([1]) and all.
	inside [2][]bool
	// declared maps a declared variable id to its type.
	declared map[string]string
	// never marks entries that can never be sent (unreachable-entry's
	// verdicts), which other rules leave alone.
	never map[*schema.Entry]bool
	// index maps an entry to its place in the book.
	index map[*schema.Entry]int
}

// kwRef says whose keyword a matcher pattern is.
type kwRef struct {
	entry     int // index in Book.Entries
	kw        *schema.Keyword
	secondary bool
}

// keywordIndex is the one index of every keyword that can activate an entry:
// primary and secondary keywords of enabled entries that are keyword-activated
// (alwaysSend false). Always-sent entries are left out: their keywords decide
// nothing (keywords-ignored says so), so they neither collide nor fire.
//
// Rules read it by group (every pattern with one normalised text, or one
// regular expression), never pattern by pattern: a keyword that ten thousand
// entries share is one group, so a text that mentions it costs one hit.
type keywordIndex struct {
	refs []kwRef
	m    *match.Matcher
}

// triggerable reports an entry that keywords can bring into the prompt.
func triggerable(e *schema.Entry) bool { return e.Enabled && !e.AlwaysSend }

func (c *Context) keywords() *keywordIndex {
	if c.shared.kw != nil {
		return c.shared.kw
	}
	idx := &keywordIndex{}
	n := 0
	for _, e := range c.Book.Entries {
		if triggerable(e) {
			n += len(e.Keywords) + len(e.SecondaryKeywords)
		}
	}
	idx.refs = make([]kwRef, 0, n)
	ps := make([]match.Pattern, 0, n)
	add := func(i int, e *schema.Entry, kws []schema.Keyword, secondary bool) {
		for k := range kws {
			idx.refs = append(idx.refs, kwRef{entry: i, kw: &kws[k], secondary: secondary})
			ps = append(ps, match.Pattern{Text: kws[k].Text, WholeWords: c.wholeWords(e, kws[k].Text), Owner: i})
		}
	}
	for i, e := range c.Book.Entries {
		if !triggerable(e) {
			continue
		}
		add(i, e, e.Keywords, false)
		add(i, e, e.SecondaryKeywords, true)
	}
	// Compile errors are invalid-regex's to report; such patterns never match.
	idx.m, _ = match.Compile(ps)
	c.shared.kw = idx
	return idx
}

// fires reports whether pattern p matches at occurrence o: a pattern that asks
// for whole words needs a bounded one.
func (idx *keywordIndex) fires(p int, o match.Occurrence) bool {
	return o.Bounded || !idx.m.WantsBoundaries(p)
}

// substringKeyword reports a literal keyword that matches inside longer words:
// one the engine does not match as a whole word (or written in a script
// without spaces, where whole-word matching does not apply).
func (c *Context) substringKeyword(e *schema.Entry, kw string) bool {
	return !match.IsRegex(kw) && (!c.wholeWords(e, kw) || match.NoWordBoundaries(kw))
}

// ownWholeWords says the entry itself asks for whole words for keyword kw
// (not an engine's global setting).
func (c *Context) ownWholeWords(e *schema.Entry, kw string) bool {
	if c.Engine.WholeWords != nil {
		whole, own := c.Engine.WholeWords(e, kw)
		return whole && own
	}
	return e.MatchWholeWords
}

// wholeWords says whether the engine matches keyword kw of e as a whole word.
func (c *Context) wholeWords(e *schema.Entry, kw string) bool {
	if c.Engine.WholeWords != nil {
		whole, _ := c.Engine.WholeWords(e, kw)
		return whole
	}
	return e.MatchWholeWords
}

// entryName names an entry in a message: its id, and the name the creator gave
// it when that says something the id does not (an imported "entry-13" is 刘琮
// to its creator).
func entryName(e *schema.Entry) string {
	q := quote(e.ID)
	if e.Name == "" || sameLetters(e.Name, e.ID) {
		return q
	}
	name := e.Name
	if !singleSpaced(name) {
		name = strings.Join(strings.Fields(name), " ")
	}
	if len(name) > 40 { // bytes: a name of 40 bytes or fewer has at most 40 characters
		if rs := []rune(name); len(rs) > 40 {
			name = string(rs[:39]) + "…"
		}
	}
	return q + " (" + name + ")"
}

// singleSpaced says an ASCII name's words are one space apart, with none
// at its ends: strings.Fields would give it back as it is.
func singleSpaced(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == ' ' && s[i+1] == ' ', c != ' ' && asciiSpace(c):
			return false
		}
	}
	return true
}

func asciiSpace(c byte) bool {
	return c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == ' '
}

// sameLetters says a name and an id spell the same thing: the ASCII letters and
// digits of one, case folded, are found in the other's ("The Sleeping Stag"
// and sleeping-stag, "Southsea" and southsea-2). A name in another script
// never is.
func sameLetters(name, id string) bool {
	var nb, ib [64]byte
	n, i := asciiLetters(nb[:0], name), asciiLetters(ib[:0], id)
	if len(n) == 0 || len(i) == 0 {
		return false
	}
	return bytes.Contains(n, i) || bytes.Contains(i, n)
}

// asciiLetters appends the ASCII letters, lowered, and digits of s to b;
// nothing when s holds a character past ASCII.
func asciiLetters(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		case c >= utf8.RuneSelf:
			return b[:0]
		}
	}
	return b
}
