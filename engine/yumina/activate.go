package yumina

import (
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

	// eligible says an entry is matched (a candidate whose conditions
	// hold); primary and secondary are its keywords' indices in kws.
	eligible           []bool
	primary, secondary [][]int
	kws                []keyword
	sub, word          *match.Matcher
	subRefs, wordRefs  []int // pattern → keyword
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
	clock   *match.RegexClock // times the regular-expression keywords
}

// segment is where a message or an entry's content starts in the text.
type segment struct {
	start int
	msg   int // transcript index, -1 for content
	entry int // index in es, -1 for a message
}

func newActivator(es []*entry, vars map[string]any, limit int) *activator {
	a := &activator{es: es, vars: vars, limit: limit, eligible: make([]bool, len(es)),
		primary: make([][]int, len(es)), secondary: make([][]int, len(es)),
		stamp: make([]int, len(es)), byEntry: make([]*activation, len(es))}
	a.compile()
	a.subDone = make([]int, a.sub.NumGroups())
	a.wordDone = make([]bool, a.word.NumGroups())
	a.clock = match.NewRegexClock()
	a.subScan, a.wordScan = a.sub.ScannerWithin(a.clock), a.word.Scanner()
	return a
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
