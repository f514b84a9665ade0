package yumina

import (
	"math"
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
)

// keyword is one primary or secondary keyword of a candidate.
type keyword struct {
	entry     int // index in activator.es
	secondary bool
	k         int // index in the entry's Keywords or SecondaryKeywords
	word      bool
	empty     bool // "": a substring of anything, a whole word wherever there is a boundary
	regexErr  error
	hasRegex  bool
	// litHit says the keyword matched as text at some level (that never
	// stops being true as the text grows); regexLevel is the last level its
	// regular expression matched at (-1: never).
	litHit     bool
	litLevel   int
	litAt      [2]int
	regexLevel int
	regexAt    [2]int
}

// compile puts the keywords of every eligible candidate into the automata:
// substrings (and every regular expression) in sub, whole words in word.
func (a *activator) compile() {
	var subPats, wordPats []match.Pattern
	for i, e := range a.es {
		if e.Role == roleGreeting || !e.Enabled && !e.variableBound() || e.alwaysSend && !e.variableBound() {
			continue
		}
		if a.eligible[i], _ = conditionsHold(e, a.vars); !a.eligible[i] {
			continue
		}
		add := func(text string, secondary bool, k int) {
			kw := keyword{entry: i, secondary: secondary, k: k, word: e.MatchWholeWords, empty: text == "", regexLevel: -1}
			idx := len(a.kws)
			if match.IsJSRegex(text) {
				kw.hasRegex = true
				subPats = append(subPats, match.Pattern{Text: forceI(text), Owner: i})
				a.subRefs = append(a.subRefs, idx)
			}
			switch {
			case kw.empty:
			case kw.word:
				wordPats = append(wordPats, match.Pattern{Text: match.JSLower(text), WholeWords: true, Literal: true, Owner: i})
				a.wordRefs = append(a.wordRefs, idx)
			default:
				subPats = append(subPats, match.Pattern{Text: text, Literal: true, Owner: i})
				a.subRefs = append(a.subRefs, idx)
			}
			if kw.hasRegex || kw.empty {
				if n := len(a.always); n == 0 || a.always[n-1] != i {
					a.always = append(a.always, i)
				}
			}
			a.kws = append(a.kws, kw)
			if secondary {
				a.secondary[i] = append(a.secondary[i], idx)
			} else {
				a.primary[i] = append(a.primary[i], idx)
			}
		}
		for k, kw := range e.Keywords {
			add(kw.Text, false, k)
		}
		if len(e.Keywords) == 0 {
			continue
		}
		for k, kw := range e.SecondaryKeywords {
			add(kw.Text, true, k)
		}
	}
	var errs []error
	a.sub, errs = match.CompileWith(subPats, match.Options{Fold: match.FoldJSLower, Regex: match.ECMAScript, Blank: true})
	for _, err := range errs {
		if pe, ok := err.(*match.PatternError); ok {
			a.kws[a.subRefs[pe.Index]].regexErr = pe.Err
		}
	}
	a.word, _ = match.CompileWith(wordPats, match.Options{Fold: match.FoldJSIgnoreCase, Bounded: match.JSWordBoundaries, Blank: true})
}

// forceI adds the i flag Yumina always adds to a keyword's regular
// expression.
func forceI(kw string) string {
	flags := kw[strings.LastIndexByte(kw, '/')+1:]
	if strings.ContainsRune(flags, 'i') {
		return kw
	}
	return kw + "i"
}

// scan finds the keyword hits of text that end after from.
func (a *activator) scan(from int) {
	a.touched = a.touched[:0]
	if !a.wordChar {
		for i := from; i < len(a.text); i++ {
			if c := a.text[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' {
				a.wordChar = true
				break
			}
		}
	}
	// A group's patterns are visited once: at its first hit for a literal
	// (a literal that matched keeps matching), at its first hit of the level
	// for a regular expression.
	a.subScan.Grow(a.text, from, a.wantRegex, func(o match.Occurrence) {
		if a.subDone[o.Group] > a.level {
			return
		}
		regex := a.sub.IsRegexGroup(o.Group)
		a.subDone[o.Group] = a.level + 1
		if !regex {
			a.subDone[o.Group] = math.MaxInt // for good
		}
		for _, p := range a.sub.GroupPatterns(o.Group) {
			kw := &a.kws[a.subRefs[p]]
			if regex {
				kw.regexLevel, kw.regexAt = a.level, [2]int{o.Start, o.End}
				continue
			}
			a.hit(kw, o)
		}
	})
	a.wordScan.Grow(a.text, from, nil, func(o match.Occurrence) {
		if !o.Bounded || a.wordDone[o.Group] {
			return
		}
		a.wordDone[o.Group] = true
		for _, p := range a.word.GroupPatterns(o.Group) {
			a.hit(&a.kws[a.wordRefs[p]], o)
		}
	})
}

// wantRegex says whether a regular expression still matters: some entry
// it belongs to has not activated yet.
func (a *activator) wantRegex(g int) bool {
	for _, p := range a.sub.GroupPatterns(g) {
		if a.byEntry[a.kws[a.subRefs[p]].entry] == nil {
			return true
		}
	}
	return false
}

func (a *activator) hit(kw *keyword, o match.Occurrence) {
	if kw.litHit {
		return
	}
	kw.litHit, kw.litLevel, kw.litAt = true, a.level, [2]int{o.Start, o.End}
	if a.stamp[kw.entry] != a.level+1 {
		a.stamp[kw.entry] = a.level + 1
		a.touched = append(a.touched, kw.entry)
	}
}

// matched reports whether keyword k matches the text of the current level,
// and where.
func (a *activator) matched(k int) (bool, [2]int) {
	kw := &a.kws[k]
	switch {
	case kw.regexLevel == a.level:
		return true, kw.regexAt
	case kw.litHit:
		return true, kw.litAt
	case kw.empty:
		return !kw.word || a.wordChar, [2]int{0, 0}
	}
	return false, [2]int{}
}

// count is how many of the keywords match, the first that does and where.
func (a *activator) count(ks []int) (n, first int, at [2]int) {
	first = -1
	for _, k := range ks {
		if ok, where := a.matched(k); ok {
			if n == 0 {
				first, at = k, where
			}
			n++
		}
	}
	return n, first, at
}

// secondaryHolds applies the entry's secondary logic; an unknown logic never
// holds, as in Yumina.
func (a *activator) secondaryHolds(i int) bool {
	ks := a.secondary[i]
	if len(ks) == 0 {
		return true
	}
	n, _, _ := a.count(ks)
	switch logic(a.es[i]) {
	case "AND_ANY":
		return n > 0
	case "AND_ALL":
		return n == len(ks)
	case "NOT_ANY":
		return n == 0
	case "NOT_ALL":
		return n < len(ks)
	}
	return false
}

func logic(e *entry) string {
	if e.SecondaryKeywordLogic == "" {
		return "AND_ANY"
	}
	return e.SecondaryKeywordLogic
}

// keywordText is keyword k as the lorebook writes it.
func (a *activator) keywordText(k int) string {
	kw := a.kws[k]
	e := a.es[kw.entry]
	if kw.secondary {
		return e.SecondaryKeywords[kw.k].Text
	}
	return e.Keywords[kw.k].Text
}

// stoppedKeys phrases, for Result.Limits, each regular-expression keyword
// the render's clock stopped, once per entry that has it.
func (a *activator) stoppedKeys() []string {
	var out []string
	for _, st := range a.clock.Stopped() {
	entries:
		for _, e := range a.es {
			for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
				for _, k := range kws {
					if match.IsJSRegex(k.Text) && forceI(k.Text) == st.Keyword {
						out = append(out, render.StoppedRegex(e.Entry, match.Stopped{Keyword: k.Text, Reason: st.Reason}))
						continue entries
					}
				}
			}
		}
	}
	return out
}
