package reply

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A limit is a bound a template states in words that a reply can be held to:
// "最多20字" on a description, "{{random::4::5::6}}" on a `...` line. Only
// the phrasings below are read (docs/formats-replies.md lists them); any other
// wording is left to the model, never guessed at.
type limit struct {
	min, max int   // -1: unbounded
	set      []int // one of these counts ({{random::4::5::6}}), sorted
	unit     unit
	noun     string // what is counted, for items ("options", "Chat")
	phrase   string // the words that state it, as written
	at       int    // where the first phrase starts in the text read
}

type unit uint8

const (
	unitChars unit = iota + 1 // characters of a filled-in text
	unitWords                 // whitespace-separated words of it
	unitItems                 // repetitions of a line, items of a JSON array
)

// where says what a limit is read for, which decides the units that count.
type where uint8

const (
	inFill   where = iota // a ${description}: characters or words of the text
	inRepeat              // the instruction on a `...` line: how many repetitions
	inJSON                // the description of a JSON fill: items of the array
)

const num = `([0-9０-９]+)`

var (
	cnChars = `(个?(?:字符|汉字|字))`
	cnItems = `((?:个|条|项|组)\s*[\p{L}\p{N}_]{0,12})`
	cnUnit  = `(?:` + cnChars + `|` + cnItems + `)`
	enUnit  = `(\p{L}[\p{L}\p{N}_]*)`

	// limitRes are compiled on first use, as requiredRe is.
	limitRes = sync.OnceValue(func() []limitRe {
		return []limitRe{
			{regexp.MustCompile(num + `\s*(?:~|～|〜|-|－|–|—|到|至)\s*` + num + `\s*` + cnUnit), 'r'},
			{regexp.MustCompile(`(最多|至多|不超过|不多于|不能超过|不得超过|不要超过|不可超过|不大于|不少于|不低于|不小于|少于|小于|低于|不足|至少|最少|多于|超过|大于|高于)\s*` + num + `\s*` + cnUnit), 'k'},
			{regexp.MustCompile(num + `\s*` + cnUnit + `\s*(?:以内|之内|以下)`), 'L'},
			{regexp.MustCompile(num + `\s*` + cnUnit + `\s*以上`), 'G'},
			{regexp.MustCompile(`(生成|输出|给出|提供|列出|写)\s*` + num + `\s*` + cnUnit), '='},
			{regexp.MustCompile(`(?i)\b(?:between\s+)?` + num + `\s*(?:-|–|—|~|to|and)\s*` + num + `\s+` + enUnit), 'r'},
			{regexp.MustCompile(`(?i)\b(at most|no more than|not more than|up to|maximum of|maximum|max|fewer than|less than|under|at least|no fewer than|no less than|not less than|minimum of|minimum|min|more than|over)\s+` + num + `\s+` + enUnit), 'k'},
			{regexp.MustCompile(`(?i)\b(exactly|generate|write|give|output|provide|list)\s+` + num + `\s+` + enUnit), '='},
		}
	})
	randomRe = regexp.MustCompile(`\{\{random\s*::?\s*([^{}]*)\}\}`)
)

// limitRe is one pattern of a length limit. kind: r a range, k a bound word
// before the number (maxWords or minWords), L a maximum after it (30字以内),
// G a minimum after it (40字以上), = an exact count.
type limitRe struct {
	re   *regexp.Regexp
	kind byte
}

// maxWords are the bound words of an upper bound; the others are lower ones.
var maxWords = map[string]bool{"最多": true, "至多": true, "不超过": true, "不多于": true, "不能超过": true, "不得超过": true,
	"不要超过": true, "不可超过": true, "不大于": true, "少于": true, "小于": true, "低于": true, "不足": true,
	"at most": true, "no more than": true, "not more than": true, "up to": true, "maximum of": true, "maximum": true,
	"max": true, "fewer than": true, "less than": true, "under": true}

// exclusive words bound the count strictly: "少于20字" is at most 19.
var exclusive = map[string]bool{"少于": true, "小于": true, "低于": true, "不足": true, "多于": true, "超过": true,
	"大于": true, "高于": true, "fewer than": true, "less than": true, "under": true, "more than": true, "over": true}

// unitOf classifies the unit words after a number.
func unitOf(w string) (unit, string) {
	w = strings.TrimSpace(w)
	lw := strings.ToLower(w)
	switch {
	case strings.HasSuffix(w, "字") || strings.HasSuffix(w, "字符") || strings.HasSuffix(w, "汉字"):
		return unitChars, ""
	case lw == "character" || lw == "characters" || lw == "char" || lw == "chars" || lw == "letter" || lw == "letters":
		return unitChars, ""
	case lw == "word" || lw == "words":
		return unitWords, ""
	}
	noun := strings.TrimLeft(w, "个条项组 \t")
	return unitItems, noun
}

func atoi(s string) (int, bool) {
	var b strings.Builder
	for _, r := range s {
		if r >= '０' && r <= '９' {
			r = '0' + (r - '０')
		}
		b.WriteRune(r)
	}
	n, err := strconv.Atoi(b.String())
	return n, err == nil && n < 1<<30
}

// itemNouns are the words for "items" a JSON count may use besides the
// type's own name.
var itemNouns = map[string]bool{"": true, "item": true, "items": true, "object": true, "objects": true, "entry": true,
	"entries": true, "element": true, "elements": true, "对象": true, "元素": true, "条目": true, "项": true}

// parseLimit reads the limits stated in s for w (typeName: the JSON type a
// JSON fill's array holds). Several phrases combine: "不低于40字，不超过60字"
// is 40 to 60. It returns nil when s states none it can decide.
func parseLimit(s string, w where, typeName string) *limit {
	if !strings.ContainsAny(s, "0123456789０１２３４５６７８９") {
		return nil
	}
	l := &limit{min: -1, max: -1, at: -1}
	var read [][2]int // the phrases read, by byte range
	note := func(from, to int) { read = append(read, [2]int{from, to}) }
	taken := func(from, to int) bool {
		for _, r := range read {
			if from < r[1] && r[0] < to {
				return true
			}
		}
		return false
	}
	if w == inRepeat {
		for _, m := range randomRe.FindAllStringSubmatchIndex(s, -1) {
			var set []int
			for _, p := range strings.FieldsFunc(s[m[2]:m[3]], func(r rune) bool { return r == ':' || r == ',' }) {
				n, ok := atoi(strings.TrimSpace(p))
				if !ok {
					set = nil
					break
				}
				set = append(set, n)
			}
			if len(set) > 0 {
				slices.Sort(set)
				l.set = slices.Compact(set)
				l.unit = unitItems
				note(m[0], m[1])
			}
		}
	}
	for _, lr := range limitRes() {
		for _, m := range lr.re.FindAllStringSubmatchIndex(s, -1) {
			group := func(i int) string {
				if 2*i+1 >= len(m) || m[2*i] < 0 {
					return ""
				}
				return s[m[2*i]:m[2*i+1]]
			}
			var word, a, b, unitWord string
			switch lr.kind {
			case 'r':
				a, b = group(1), group(2)
				unitWord = group(3) + group(4)
			case 'L', 'G':
				a = group(1)
				unitWord = group(2) + group(3)
			default:
				word, a = group(1), group(2)
				unitWord = group(3) + group(4)
			}
			if taken(m[0], m[1]) {
				continue // "超过" inside "不超过", "more than" inside "no more than"
			}
			u, noun := unitOf(unitWord)
			if !unitFits(u, noun, w, typeName) {
				continue
			}
			if l.unit != 0 && l.unit != u {
				continue // one unit per limit: the first one read
			}
			x, ok := atoi(a)
			if !ok {
				continue
			}
			lw := strings.ToLower(word)
			switch lr.kind {
			case 'r':
				y, ok := atoi(b)
				if !ok || y < x {
					continue
				}
				l.raise(x)
				l.lower(y)
			case 'k':
				switch {
				case maxWords[lw]:
					if exclusive[lw] {
						x--
					}
					l.lower(x)
				default:
					if exclusive[lw] {
						x++
					}
					l.raise(x)
				}
			case 'L':
				l.lower(x)
			case 'G':
				l.raise(x)
			case '=':
				if w != inRepeat && lw != "exactly" {
					continue // "write 5 words" is a wish; "exactly 5" a limit
				}
				l.raise(x)
				l.lower(x)
			}
			l.unit, l.noun = u, noun
			note(m[0], m[1])
		}
	}
	slices.SortFunc(read, func(a, b [2]int) int { return a[0] - b[0] })
	for i, r := range read {
		if i == 0 {
			l.at = r[0]
		} else {
			l.phrase += ", "
		}
		l.phrase += s[r[0]:r[1]]
	}
	if len(read) == 0 || (l.min >= 0 && l.max >= 0 && l.min > l.max) || (l.set == nil && l.min < 0 && l.max < 0) {
		return nil
	}
	return l
}

// unitFits says whether a unit counts something the checker can see where
// the limit is read.
func unitFits(u unit, noun string, w where, typeName string) bool {
	switch w {
	case inFill:
		return u == unitChars || u == unitWords
	case inRepeat:
		return u == unitItems
	case inJSON:
		if u != unitItems {
			return false
		}
		n := strings.ToLower(noun)
		t := strings.ToLower(typeName)
		return itemNouns[n] || (t != "" && (n == t || n == t+"s"))
	}
	return false
}

func (l *limit) raise(n int) {
	if l.min < 0 || n > l.min {
		l.min = n
	}
}

func (l *limit) lower(n int) {
	if l.max < 0 || n < l.max {
		l.max = n
	}
}

// holds says whether a count meets the limit.
func (l *limit) holds(n int) bool {
	if l.set != nil && !slices.Contains(l.set, n) {
		return false
	}
	return (l.min < 0 || n >= l.min) && (l.max < 0 || n <= l.max)
}

// want says what the limit allows, in words: "at most 20", "4, 5 or 6",
// "40 to 60".
func (l *limit) want() string {
	var parts []string
	if l.set != nil {
		var ns []string
		for _, n := range l.set {
			ns = append(ns, strconv.Itoa(n))
		}
		if len(ns) == 1 {
			parts = append(parts, "exactly "+ns[0])
		} else {
			parts = append(parts, strings.Join(ns[:len(ns)-1], ", ")+" or "+ns[len(ns)-1])
		}
	}
	switch {
	case l.min >= 0 && l.max >= 0 && l.min == l.max:
		parts = append(parts, fmt.Sprintf("exactly %d", l.min))
	case l.min >= 0 && l.max >= 0:
		parts = append(parts, fmt.Sprintf("%d to %d", l.min, l.max))
	case l.min >= 0:
		parts = append(parts, fmt.Sprintf("at least %d", l.min))
	case l.max >= 0:
		parts = append(parts, fmt.Sprintf("at most %d", l.max))
	}
	return strings.Join(parts, " and ")
}

// count measures a filled-in text in the limit's unit.
func (l *limit) count(text string) int {
	if l.unit == unitWords {
		return len(strings.Fields(text))
	}
	return utf8.RuneCountInString(text)
}

func (u unit) String() string {
	switch u {
	case unitChars:
		return "characters"
	case unitWords:
		return "words"
	}
	return "items"
}
