package yumina

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lorekit/lore/match"
)

// Activation follows Yumina's lorebook matcher:
//   - greeting entries are never matched; a disabled entry is skipped unless
//     it has conditions (then it is matched, and its content feeds recursion,
//     but it is never sent);
//   - an entry with alwaysSend and no conditions is always sent; every other
//     entry is a candidate, alwaysSend or not;
//   - the scan window is the newest lorebookScanDepth messages joined into
//     one text with spaces, so a keyword or a secondary keyword may match
//     across two messages;
//   - a candidate whose conditions fail is out; one without keywords is in
//     by its conditions alone (when it has some); else one primary keyword
//     must match and the secondary logic hold, in that one text;
//   - recursion: the content of the entries a level activates (raw, macros
//     unexpanded, preventRecursion ones left out) is appended to the text,
//     and the next level scans it all again, up to lorebookRecursionDepth
//     levels; excludeRecursion entries only activate at level 0;
//   - an activated entry's score is the number of its primary keywords that
//     match, plus one when it has secondary keywords.
//
// Keywords match as Yumina's keyword matcher does: a /pattern/flags keyword
// is a JavaScript regular expression, always case-insensitive, tried on the
// text as it is; when it does not match (or does not compile) the keyword
// is looked for as text: with matchWholeWords as the regular expression
// /\bkeyword\b/i (ASCII word boundaries, the keyword lower-cased first), else
// as a substring of the lower-cased text.
//
// Every keyword of the lorebook is in one of two automata (substrings,
// whole words), run once over the window and once over each level's new
// content; regular expressions are run over the whole text at each level,
// as Yumina does.

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

// activation is one activated entry.
type activation struct {
	entry *entry
	level int
	score int
	// kw is the primary keyword whose hit is its trigger (-1: conditions
	// alone); at is where the hit is in the scanned text; secondary are the
	// secondary keywords that matched then.
	kw        int
	at        [2]int
	secondary []int
}

type activator struct {
	es     []*entry
	vars   map[string]any
	limit  int
	window []string // the scan window's messages, oldest first
	first  int      // transcript index of window[0]

	candidate, eligible []bool
	condWhy             []string
	primary, secondary  [][]int // keyword indices by entry
	kws                 []keyword
	sub, word           *match.Matcher
	subRefs, wordRefs   []int // pattern → keyword
	// subDone[g] > level says group g of sub needs no more visits this level;
	// wordDone[g] that group g of word was visited.
	subDone           []int
	wordDone          []bool
	subScan, wordScan *match.Scanner
	// always are the candidates re-evaluated at every level: those with a
	// regular expression or an empty keyword, whose match can change
	// without a new hit.
	always []int

	text     string
	segments []segment
	wordChar bool // the text has an ASCII word character (empty whole-word keywords)
	level    int
	touched  []int
	stamp    []int // level+1 at which an entry was last touched

	active  []*activation // in activation order
	byEntry []*activation
}

// segment is where a message or an entry's content starts in the text.
type segment struct {
	start int
	msg   int // transcript index, -1 for content
	entry int // index in es, -1 for a message
}

func newActivator(es []*entry, vars map[string]any, limit int) *activator {
	a := &activator{es: es, vars: vars, limit: limit,
		candidate: make([]bool, len(es)), eligible: make([]bool, len(es)), condWhy: make([]string, len(es)),
		primary: make([][]int, len(es)), secondary: make([][]int, len(es)),
		stamp: make([]int, len(es)), byEntry: make([]*activation, len(es))}
	var subPats, wordPats []match.Pattern
	for i, e := range es {
		if e.Role == roleGreeting || !e.Enabled && !e.variableBound() || e.alwaysSend && !e.variableBound() {
			continue
		}
		a.candidate[i] = true
		a.eligible[i], a.condWhy[i] = conditionsHold(e, vars)
		if !a.eligible[i] {
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
	a.subDone = make([]int, a.sub.NumGroups())
	a.wordDone = make([]bool, a.word.NumGroups())
	a.subScan, a.wordScan = a.sub.Scanner(), a.word.Scanner()
	return a
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

// run scans the window and recurses.
func (a *activator) run() {
	var b strings.Builder
	for i, m := range a.window {
		if i > 0 {
			b.WriteByte(' ')
		}
		a.segments = append(a.segments, segment{start: b.Len(), msg: a.first + i, entry: -1})
		b.WriteString(m)
	}
	a.text = b.String()
	from := 0
	for a.level = 0; a.level <= a.limit; a.level++ {
		a.scan(from)
		newly := a.evaluate()
		if len(newly) == 0 {
			break
		}
		if a.level == a.limit {
			break
		}
		var parts []string
		var owners []int
		for _, x := range newly {
			if !x.entry.PreventRecursion {
				parts = append(parts, x.entry.Content)
				owners = append(owners, x.entry.idx)
			}
		}
		content := strings.Join(parts, " ")
		if content == "" {
			continue // nothing new to scan: the next level finds what this one did
		}
		from = b.Len()
		b.WriteByte(' ')
		for k, p := range parts {
			if k > 0 {
				b.WriteByte(' ')
			}
			a.segments = append(a.segments, segment{start: b.Len(), msg: -1, entry: owners[k]})
			b.WriteString(p)
		}
		a.text = b.String()
	}
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

// evaluate activates what the current level's text lets in, in file order.
func (a *activator) evaluate() []*activation {
	set := append([]int(nil), a.touched...)
	set = append(set, a.always...)
	if a.level == 0 {
		for i, e := range a.es {
			if a.eligible[i] && len(e.Keywords) == 0 && e.variableBound() {
				set = append(set, i)
			}
		}
	}
	slices.Sort(set)
	set = slices.Compact(set)
	var newly []*activation
	for _, i := range set {
		e := a.es[i]
		if a.byEntry[i] != nil || !a.eligible[i] || a.level > 0 && e.ExcludeRecursion {
			continue
		}
		x := &activation{entry: e, level: a.level, kw: -1}
		if len(e.Keywords) == 0 && !e.variableBound() {
			continue
		}
		if len(e.Keywords) > 0 {
			n, first, at := a.count(a.primary[i])
			if n == 0 || !a.secondaryHolds(i) {
				continue
			}
			x.score, x.kw, x.at = n, first, at
			if len(a.secondary[i]) > 0 {
				x.score++
				for _, k := range a.secondary[i] {
					if ok, _ := a.matched(k); ok {
						x.secondary = append(x.secondary, k)
					}
				}
			}
		}
		a.byEntry[i] = x
		a.active = append(a.active, x)
		newly = append(newly, x)
	}
	return newly
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

// ranked is the activated candidates in Yumina's order: by position, then
// by score (highest first), then in activation order.
func (a *activator) ranked() []*activation {
	out := append([]*activation(nil), a.active...)
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.entry.Position != y.entry.Position {
			return x.entry.Position < y.entry.Position
		}
		return x.score > y.score
	})
	return out
}

// segmentOf is the index of the segment (message or content) holding byte
// i of the text, -1 before the first.
func (a *activator) segmentOf(i int) int {
	return sort.Search(len(a.segments), func(k int) bool { return a.segments[k].start > i }) - 1
}

// segmentBounds is the byte range of the segment holding byte i, without
// the space that joins it to the next.
func (a *activator) segmentBounds(i int) (start, end int) {
	k := a.segmentOf(i)
	if k < 0 {
		return 0, len(a.text)
	}
	end = len(a.text)
	if k+1 < len(a.segments) {
		end = a.segments[k+1].start - 1
	}
	return a.segments[k].start, end
}

// locate names where a hit starts: "message:N" or "entry:ID".
func (a *activator) locate(at [2]int) (in string, seg segment) {
	k := a.segmentOf(at[0])
	if k < 0 {
		return "", segment{msg: -1, entry: -1}
	}
	seg = a.segments[k]
	if seg.entry >= 0 {
		return "entry:" + a.es[seg.entry].ID, seg
	}
	return "message:" + strconv.Itoa(seg.msg), seg
}
