package automaton

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// naive finds every occurrence by comparing every pattern at every end
// offset, ordered as Each promises: by end, then longest first.
func naive(patterns [][]byte, text []byte) []Match {
	var out []Match
	for end := 1; end <= len(text); end++ {
		var here []Match
		for id, p := range patterns {
			if len(p) <= end && bytes.Equal(text[end-len(p):end], p) {
				here = append(here, Match{PatternID: id, Start: end - len(p), End: end})
			}
		}
		slices.SortFunc(here, func(a, b Match) int { return a.Start - b.Start })
		out = append(out, here...)
	}
	return out
}

func check(t *testing.T, patterns [][]byte, text []byte) {
	t.Helper()
	a, err := New(patterns)
	if err != nil {
		t.Fatal(err)
	}
	got, want := a.FindAllOverlapping(text), naive(patterns, text)
	if !slices.Equal(got, want) {
		t.Fatalf("patterns %q in %q:\n got %v\nwant %v", patterns, text, got, want)
	}
}

func distinct(ps []string) [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	for _, p := range ps {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, []byte(p))
		}
	}
	return out
}

func TestKnownCases(t *testing.T) {
	cases := []struct {
		pats []string
		text string
	}{
		{[]string{"he", "she", "his", "hers"}, "ushers"},
		{[]string{"a", "aa", "aaa"}, "aaaa"},
		{[]string{"bar", "barrel", "rel"}, "a barrel of bar"},
		{[]string{"abcd", "bc", "c"}, "abcabcd"},
		{[]string{"霧の谷", "の", "谷"}, "霧の谷の谷"},
		{[]string{"\x00", "\xff\xfe"}, "\x00\xff\xfe\xff"},
	}
	for _, c := range cases {
		check(t, distinct(c.pats), []byte(c.text))
	}
}

// TestRandom compares with the naive search on small alphabets (many
// overlaps and deep failure chains) and on all bytes (wide rows).
func TestRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, alphabet := range []string{"ab", "abc", "abcdefgh", string(func() []byte {
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(i)
		}
		return b
	}())} {
		for round := 0; round < 200; round++ {
			word := func(n int) string {
				b := make([]byte, n)
				for i := range b {
					b[i] = alphabet[r.IntN(len(alphabet))]
				}
				return string(b)
			}
			var ps []string
			for range 1 + r.IntN(30) {
				ps = append(ps, word(1+r.IntN(6)))
			}
			check(t, distinct(ps), []byte(word(r.IntN(200))))
		}
	}
}

func TestErrors(t *testing.T) {
	if _, err := New([][]byte{[]byte("a"), {}}); err != ErrEmpty {
		t.Errorf("empty pattern: %v", err)
	}
	if _, err := New([][]byte{[]byte("a"), []byte("a")}); err != ErrDuplicate {
		t.Errorf("duplicate pattern: %v", err)
	}
	a, err := New(nil)
	if err != nil || len(a.FindAllOverlapping([]byte("text"))) != 0 {
		t.Errorf("no patterns: %v", err)
	}
}

// TestBuildLinear: patterns that make a naive failure computation
// quadratic ("aaaa…", periodic ones) build in time linear in their length:
// doubling them at most about doubles the time (and the states).
func TestBuildLinear(t *testing.T) {
	build := func(n int) (time.Duration, int) {
		ps := [][]byte{[]byte(strings.Repeat("a", n)), []byte(strings.Repeat("ab", n/2)), []byte(strings.Repeat("a", n-1) + "b")}
		for k := 2; k < 40; k++ {
			ps = append(ps, []byte(strings.Repeat(strings.Repeat("a", k)+"b", n/(k+1))+"c"))
		}
		best := time.Duration(1 << 62)
		var states int
		for range 3 {
			start := time.Now()
			a, err := New(distinct(func() []string {
				var s []string
				for _, p := range ps {
					s = append(s, string(p))
				}
				return s
			}()))
			if err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
			states = a.States()
			a.FindAllOverlapping(ps[0])
		}
		return best, states
	}
	t1, s1 := build(20000)
	t2, s2 := build(40000)
	if float64(s2) > 2.1*float64(s1) {
		t.Errorf("states: %d → %d", s1, s2)
	}
	// Time is noisy on a shared machine; a quadratic build would be 4× (and,
	// on "aaaa…" of 40,000 bytes, seconds).
	if t2 > 4*t1+50*time.Millisecond {
		t.Errorf("building 2× the patterns took %v against %v: not linear", t2, t1)
	}
}

func FuzzAutomaton(f *testing.F) {
	f.Add("he,she,his,hers", "ushers")
	f.Add("a,aa,aaa", "aaaaa")
	f.Add("霧,の谷", "霧の谷")
	f.Fuzz(func(t *testing.T, pats, text string) {
		if len(pats) > 200 || len(text) > 400 {
			return
		}
		check(t, distinct(strings.Split(pats, ",")), []byte(text))
	})
}

func BenchmarkBuild(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var ps []string
	for range 20000 {
		n := 5 + r.IntN(5)
		w := make([]byte, n)
		for i := range w {
			w[i] = byte('a' + r.IntN(26))
		}
		ps = append(ps, string(w))
	}
	pats := distinct(ps)
	for b.Loop() {
		if _, err := New(pats); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFoldASCII: an automaton of patterns without upper-case ASCII letters
// that folds ASCII scans a mixed-case text as the plain one scans the text
// with its ASCII letters lowered (and the same for upper case; é and É stay
// apart), in the rows and, with the rows cut to the root, in the
// states without one; it refuses patterns holding the case it would fold
// away.
func TestFoldASCII(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const alphabet = "abcxyz1 -é中"
	for round := range 300 {
		toUpper := round%2 == 1
		from := 'A' // the case folded away, of ASCII letters only
		if toUpper {
			from = 'a'
		}
		conv := func(s string) string {
			return strings.Map(func(c rune) rune {
				if from <= c && c < from+26 {
					return c ^ 0x20
				}
				return c
			}, s)
		}
		word := func(n int) string {
			var b strings.Builder
			for range n {
				c := string([]rune(alphabet)[r.IntN(len([]rune(alphabet)))])
				if r.IntN(2) == 0 {
					c = strings.ToUpper(c)
				}
				b.WriteString(c)
			}
			return b.String()
		}
		var ps []string
		for range 1 + r.IntN(40) {
			ps = append(ps, conv(word(1+r.IntN(5))))
		}
		pats := distinct(ps)
		text := word(r.IntN(300))
		want := naive(pats, []byte(conv(text)))
		for _, rows := range []bool{true, false} {
			a, err := New(pats)
			if err != nil {
				t.Fatal(err)
			}
			if !rows {
				a.dense = 1 // every state but the root without a row: deep's path
			}
			if !a.FoldASCII(toUpper) {
				t.Fatalf("FoldASCII(%v) refused %q", toUpper, pats)
			}
			var got []Match
			a.Each([]byte(text), func(m Match) { got = append(got, m) })
			if !slices.Equal(got, want) {
				t.Fatalf("patterns %q in %q (rows %v, upper %v):\n got %v\nwant %v", pats, text, rows, toUpper, got, want)
			}
		}
	}
	for _, c := range []struct {
		pats, text string
		toUpper    bool
	}{{"ab,Cd", "Cd cd", false}, {"AB,cD", "cD CD", true}} {
		a, err := New(distinct(strings.Split(c.pats, ",")))
		if err != nil {
			t.Fatal(err)
		}
		if a.FoldASCII(c.toUpper) {
			t.Errorf("FoldASCII(%v) took %s", c.toUpper, c.pats)
		}
		if got := a.FindAllOverlapping([]byte(c.text)); len(got) != 1 {
			t.Errorf("%s after a refused FoldASCII: %v", c.pats, got)
		}
	}
}
