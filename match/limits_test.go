package match

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A catastrophic JavaScript regular expression is stopped at its time limit,
// counts as not matching, is reported by the render's clock, and is not run
// again: the next text and the next render skip it at once.
func TestRegexClockStopsCatastrophicMatch(t *testing.T) {
	kw := "/(x+x+)+y/"
	m, errs := CompileWith([]Pattern{{Text: kw}, {Text: "/x/"}}, Options{Regex: ECMAScript, Fold: FoldNone})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	text := strings.Repeat("x", 40) // doubles with each x: hours without a limit
	c := NewRegexClock()
	start := time.Now()
	var groups []int
	m.OccurrencesWithin(text, c, func(o Occurrence) { groups = append(groups, o.Group) })
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("the match took %s, want about %s", took, RegexMatchTime)
	}
	if len(groups) != 1 || groups[0] != m.PatternGroup(1) {
		t.Errorf("occurrences in groups %v, want only /x/'s", groups)
	}
	if got := c.Stopped(); len(got) != 1 || got[0] != (Stopped{Keyword: kw, Reason: StopTimeout}) {
		t.Fatalf("stopped %v, want %s for its time", got, kw)
	}
	c2 := NewRegexClock()
	start = time.Now()
	m.OccurrencesWithin(text, c2, func(Occurrence) {})
	if took := time.Since(start); took > RegexMatchTime/2 {
		t.Errorf("a known-hung expression ran again (%s)", took)
	}
	if got := c2.Stopped(); len(got) != 1 || got[0].Reason != StopTimeout {
		t.Errorf("the next render's clock says %v, want it stopped", got)
	}
	if !strings.Contains(got(c2), "over 250ms") {
		t.Errorf("explanation %q does not name the limit", got(c2))
	}
}

func got(c *RegexClock) string { return c.Stopped()[0].Explain() }

// Once a render's regular expressions have taken RegexRenderTime, the others
// are not run and are reported as such.
func TestRegexClockBudget(t *testing.T) {
	m, _ := CompileWith([]Pattern{{Text: "/dragon/"}}, Options{Regex: ECMAScript, Fold: FoldNone})
	c := NewRegexClock()
	c.spent = RegexRenderTime
	hit := false
	m.OccurrencesWithin("a dragon", c, func(Occurrence) { hit = true })
	if hit {
		t.Error("an expression ran after the render's time was spent")
	}
	if s := c.Stopped(); len(s) != 1 || s[0].Reason != StopBudget || !strings.Contains(s[0].Explain(), "limit for one render") {
		t.Errorf("stopped %v", s)
	}
	var nilClock *RegexClock
	m.OccurrencesWithin("a dragon", nilClock, func(Occurrence) { hit = true })
	if !hit || nilClock.Stopped() != nil {
		t.Error("without a clock the expression must run")
	}
}

// A keyword over MaxKeywordLen, literal or regular expression, never matches
// and is a PatternError; one at the limit works.
func TestKeywordLengthLimit(t *testing.T) {
	long := strings.Repeat("a", MaxKeywordLen+1)
	ok := strings.Repeat("b", MaxKeywordLen)
	for _, o := range []Options{{}, {Regex: ECMAScript, Fold: FoldJSLower}} {
		m, errs := CompileWith([]Pattern{{Text: long}, {Text: "/" + long + "/"}, {Text: ok}}, o)
		if len(errs) != 2 {
			t.Fatalf("errors %v, want 2", errs)
		}
		for _, err := range errs {
			var pe *PatternError
			if !errors.As(err, &pe) || !errors.Is(err, ErrKeywordTooLong) || len(err.Error()) > 200 {
				t.Errorf("error %.200v", err)
			}
		}
		if got := m.Find(long + " " + ok); len(got) != 1 || got[0].Pattern != 2 {
			t.Errorf("hits %v, want only the keyword at the limit", got)
		}
	}
}

// Literal keywords past MaxKeywordTotal (lowered here) never match and are
// reported; a keyword already in, written again, still matches.
func TestKeywordTotalLimit(t *testing.T) {
	defer func(n int) { keywordTotal = n }(keywordTotal)
	keywordTotal = 10
	m, errs := CompileWith([]Pattern{{Text: "dragon"}, {Text: "tavern"}, {Text: "DRAGON"}}, Options{})
	if len(errs) != 1 || !errors.Is(errs[0], ErrKeywordsTooLarge) || errs[0].(*PatternError).Index != 1 {
		t.Fatalf("errors %v", errs)
	}
	if got := m.Find("dragon tavern"); len(got) != 2 || got[0].Pattern != 0 || got[1].Pattern != 2 {
		t.Errorf("hits %v", got)
	}
}

// The automaton is built in time linear in the keywords' length: a
// keyword like "aaaa…" among keywords of many letters took 10 s at 4,000
// characters when each state followed its failure links for every letter.
func TestAutomatonBuildLinear(t *testing.T) {
	ps := []Pattern{{Text: strings.Repeat("a", MaxKeywordLen)}, {Text: "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"}}
	start := time.Now()
	m, _ := CompileWith(ps, Options{Fold: FoldNone})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("building took %s", took)
	}
	if got := m.Find(strings.Repeat("a", MaxKeywordLen+2)); len(got) != 3 {
		t.Errorf("%d hits of the long keyword, want 3", len(got))
	}
}

func TestNestedQuantifier(t *testing.T) {
	tests := []struct{ kw, want string }{
		{"/(a+)+$/", "(a+)+"},
		{"/^(\\w+\\s?)*$/i", "(\\w+\\s?)*"},
		{"/(?:x*y)+z/", "(?:x*y)+"},
		{"/((ab)+c)+/", "((ab)+c)+"},
		{"/(a{2,})+/", "(a{2,})+"},
		{"/(a+){3,}?b/", "(a+){3,}?"},
		{"/\\bknights?\\b/i", ""},
		{"/(a+)b/", ""},
		{"/(ab)+/", ""},
		{"/(a+){2}/", ""},
		{"/[(a+)]+/", ""},
		{"/\\(a+\\)+/", ""},
		{"/a{2,3}/", ""},
		{"plain (a+)+", ""},
	}
	for _, tt := range tests {
		if got := NestedQuantifier(tt.kw); got != tt.want {
			t.Errorf("NestedQuantifier(%q) = %q, want %q", tt.kw, got, tt.want)
		}
	}
}
