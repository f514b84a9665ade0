package match

import (
	"fmt"
	"sync"
	"time"
)

// JavaScript regular expressions backtrack: /(a+)+$/ takes twice as long
// for each character of "aaaa…!", so one keyword could hang a render (and a
// CI job) for hours. These bounds hold whatever the book says.
const (
	// RegexMatchTime is the longest one match of one JavaScript regular
	// expression on one text may take (regexp2's MatchTimeout, which it
	// checks on a 100 ms clock, so a stopped match has run up to about
	// 0.45 s). An expression that runs past it is stopped, counts as not
	// matching, and is not run again by this process.
	RegexMatchTime = 250 * time.Millisecond
	// RegexRenderTime is the most all the JavaScript regular expressions
	// of one render (one RegexClock) may take together; once it is spent,
	// the expressions not run yet count as not matching.
	RegexRenderTime = 2 * time.Second
	// MaxKeywordLen is the longest keyword, literal or regular expression,
	// in bytes. A longer one never matches (a PatternError): keywords are
	// words and phrases, and the automaton and the regular-expression engine
	// cost at least what their patterns' lengths do.
	MaxKeywordLen = 4096
	// MaxKeywordTotal is the most text, in bytes after folding, that the
	// distinct literal keywords of one matcher may hold. The automaton
	// holds a row of transitions per character of them, some hundred bytes
	// each: a megabyte of keywords is some hundreds of megabytes of
	// automaton (a book of 20,000 entries has 0.6 MB). Keywords past it
	// never match (a PatternError).
	MaxKeywordTotal = 2 << 20
)

// keywordTotal is MaxKeywordTotal, lowered by tests.
var keywordTotal = MaxKeywordTotal

// ErrKeywordsTooLarge is the PatternError cause of a literal keyword that
// would take the matcher's keywords past MaxKeywordTotal.
var ErrKeywordsTooLarge = fmt.Errorf("the lorebook's distinct keywords add up to over %d MiB, the limit for all keywords together", MaxKeywordTotal>>20)

// ErrKeywordTooLong is the PatternError cause of a keyword over
// MaxKeywordLen.
var ErrKeywordTooLong = fmt.Errorf("the keyword is over %d bytes long, the limit for a keyword", MaxKeywordLen)

// StopReason says why a regular expression was stopped.
type StopReason int

const (
	// StopTimeout: one match ran past RegexMatchTime (or regexp2's
	// backtracking-stack limit), in this render or an earlier one.
	StopTimeout StopReason = iota + 1
	// StopBudget: the render's RegexRenderTime was spent before it ran.
	StopBudget
)

// Stopped is a regular-expression keyword a render stopped.
type Stopped struct {
	Keyword string // /pattern/flags as compiled
	Reason  StopReason
}

// Explain says what happened in words, for a warning.
func (s Stopped) Explain() string {
	if s.Reason == StopBudget {
		return fmt.Sprintf("was not run: the render's regular expressions had taken %s, the limit for one render, so it counts as not matching", RegexRenderTime)
	}
	return fmt.Sprintf("was stopped: one match took over %s, the limit for one match of a regular expression (catastrophic backtracking: look for nested quantifiers such as (a+)+), so it counts as not matching", RegexMatchTime)
}

// hung holds the JavaScript regular expressions (by keyword) whose match ran
// past the limit anywhere in this process: running them again on the next
// text or the next render would cost the limit again, every time.
var hung sync.Map

// A RegexClock times the JavaScript regular expressions of one render and
// remembers which it stopped. Engines make one per render and pass it to
// ScannerWithin or OccurrencesWithin; it is safe for concurrent use. A nil
// clock bounds each match by RegexMatchTime alone.
type RegexClock struct {
	mu      sync.Mutex
	spent   time.Duration
	stopped []Stopped
	seen    map[string]bool
}

// NewRegexClock starts the clock of one render.
func NewRegexClock() *RegexClock { return &RegexClock{} }

// Stopped lists the keywords stopped in this render, in the order they were.
func (c *RegexClock) Stopped() []Stopped {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Stopped(nil), c.stopped...)
}

func (c *RegexClock) stop(kw string, why StopReason) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if !c.seen[kw] {
		c.seen[kw] = true
		c.stopped = append(c.stopped, Stopped{Keyword: kw, Reason: why})
	}
}

// run matches x on text within the limits: not at all when x hung before or
// the render's time is spent, and never longer than RegexMatchTime.
func (c *RegexClock) run(x *jsRegex, text string, fn func(s, e int)) {
	_ = c.Time(x.keyword(), func() error { return x.each(text, fn) })
}

// NestedQuantifier returns the first group of a JavaScript /pattern/flags
// keyword that repeats without bound something that itself repeats without
// bound, as (a+)+ or (\w+\s?)*{1,} — the shape of catastrophic
// backtracking — with its quantifier; "" when there is none (or kw is not a
// JavaScript regular expression). It reads the pattern's characters,
// classes and escapes, not its meaning, so (a|a)+ passes.
func NestedQuantifier(kw string) string {
	p, _, ok := splitJSRegex(kw)
	if !ok {
		return ""
	}
	type group struct {
		start     int
		unbounded bool // something inside repeats without bound
	}
	stack := []group{{start: -1}}
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			stack = append(stack, group{start: i})
		case c == ')' && len(stack) > 1:
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n, unbounded := quantifierAt(p, i+1)
			if g.unbounded && unbounded {
				return p[g.start : i+1+n]
			}
			top := &stack[len(stack)-1]
			top.unbounded = top.unbounded || g.unbounded || unbounded
			i += n
		default:
			if n, unbounded := quantifierAt(p, i); n > 0 {
				top := &stack[len(stack)-1]
				top.unbounded = top.unbounded || unbounded
				i += n - 1
			}
		}
	}
	return ""
}

// quantifierAt is the length of the quantifier at p[i:] (0 for none) and
// whether it is unbounded: *, +, {n,}, each perhaps lazy (?).
func quantifierAt(p string, i int) (int, bool) {
	if i >= len(p) {
		return 0, false
	}
	n, unbounded := 0, false
	switch p[i] {
	case '*', '+':
		n, unbounded = 1, true
	case '?':
		n = 1
	case '{':
		j := i + 1
		for j < len(p) && '0' <= p[j] && p[j] <= '9' {
			j++
		}
		if j == i+1 || j >= len(p) {
			return 0, false
		}
		if p[j] == ',' {
			k := j + 1
			for k < len(p) && '0' <= p[k] && p[k] <= '9' {
				k++
			}
			unbounded = k == j+1
			j = k
		}
		if j >= len(p) || p[j] != '}' {
			return 0, false
		}
		n = j + 1 - i
	default:
		return 0, false
	}
	if i+n < len(p) && p[i+n] == '?' {
		n++
	}
	return n, unbounded
}
