package lint

import (
	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// shared holds what several rules need, built at most once per run.
type shared struct {
	kw      *keywordIndex
	macros  *render.Macros
	sizing  *render.Sizing
	counter tokenize.Counter
	// declared maps a declared variable id to its type.
	declared map[string]string
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
	var ps []match.Pattern
	add := func(i int, e *schema.Entry, kws []schema.Keyword, secondary bool) {
		for k := range kws {
			idx.refs = append(idx.refs, kwRef{entry: i, kw: &kws[k], secondary: secondary})
			ps = append(ps, match.Pattern{Text: kws[k].Text, WholeWords: e.MatchWholeWords, Owner: i})
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

// substringKeyword reports a primary literal keyword that matches inside longer
// words: one without matchWholeWords (or written in a script without spaces,
// where whole-word matching does not apply).
func substringKeyword(e *schema.Entry, kw string) bool {
	return !match.IsRegex(kw) && (!e.MatchWholeWords || match.NoWordBoundaries(kw))
}
