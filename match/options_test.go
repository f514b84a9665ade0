package match

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// What node's String.prototype.toLowerCase gives (Node 20).
func TestJSLower(t *testing.T) {
	tests := []struct{ in, want string }{
		{"TAVERN", "tavern"},
		{"ＴＡＶＥＲＮ", "ｔａｖｅｒｎ"},     // no NFKC
		{"Straße", "straße"},     // no full folding
		{"ΟΔΥΣΣΕΥΣ", "οδυσσευς"}, // final sigma
		{"ΣΑ", "σα"},
		{"Σ", "σ"},
		{"ΑΣ.", "ας."},
		{"ΑΣ'Α", "ασ'α"}, // an apostrophe is case-ignorable: not the end of the word
		{"ΑΣ Α", "ας α"},
		{"İstanbul", "i̇stanbul"},
		{"\u212A", "k"}, // Kelvin sign
		{"ǅemal", "ǆemal"},
	}
	for _, tt := range tests {
		if got := JSLower(tt.in); got != tt.want {
			t.Errorf("JSLower(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// JSLower agrees with x/text's language-neutral lower-casing, which
// implements the same Unicode rules (special casing and Final_Sigma), on
// random text that mixes sigmas, marks, apostrophes and letters.
func TestJSLowerAgainstCases(t *testing.T) {
	pool := []rune("ΣσςΑαbB '.:\u0301\u00AD-1İıKǅ\u2019ß ")
	lower := cases.Lower(language.Und)
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := r.Intn(8); n >= 0; n-- {
			b.WriteRune(pool[r.Intn(len(pool))])
		}
		s := b.String()
		if got, want := JSLower(s), lower.String(s); got != want {
			t.Fatalf("JSLower(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestJSIgnoreCase(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"tavern", "TAVERN", true},
		{"café", "CAFÉ", true},
		{"οδυσσευς", "ΟΔΥΣΣΕΥΣ", true}, // ς and σ both canonicalise to Σ
		{"οδυσσευς", "οδυσσευσ", true},
		{"ß", "SS", false}, // the upper case of ß is two letters: ß stays ß
		{"ß", "ẞ", false},
		{"ſ", "s", false},      // a non-ASCII letter never becomes ASCII
		{"\u212A", "k", false}, // the Kelvin sign
		{"ｔ", "Ｔ", true},
		{"𐐨", "𐐀", false}, // outside the BMP: two code units that never change
	}
	for _, tt := range tests {
		a, b := string(jsIgnoreCase(tt.a).text), string(jsIgnoreCase(tt.b).text)
		if (a == b) != tt.same {
			t.Errorf("%q ~ %q: got %v, want %v", tt.a, tt.b, a == b, tt.same)
		}
	}
	if rest, ok := JSCutPrefixFold("MIRA: hi", "mira"); !ok || rest != ": hi" {
		t.Errorf("JSCutPrefixFold = %q, %v", rest, ok)
	}
	if _, ok := JSCutPrefixFold("mi", "mira"); ok {
		t.Error("JSCutPrefixFold of a shorter text matched")
	}
}

func TestJSWordBoundaries(t *testing.T) {
	tests := []struct {
		text, kw string
		want     bool
	}{
		{"the bar is open", "bar", true},
		{"the barrel", "bar", false},
		{"a sword_fish", "sword", false}, // _ is a word character
		{"café au lait", "café", false},  // é is not: \b after it needs a word character
		{"cafés", "café", true},
		{"C++ rocks", "C++", false},
		{"C++x", "C++", true},
		{"the 龙 flies", "龙", false},
		{"a龙b", "龙", true},
		{"moonlight", "moon", false},
	}
	for _, tt := range tests {
		i := strings.Index(tt.text, tt.kw)
		if got := JSWordBoundaries(tt.text, i, i+len(tt.kw)); got != tt.want {
			t.Errorf("JSWordBoundaries(%q, %q) = %v, want %v", tt.text, tt.kw, got, tt.want)
		}
	}
}

func TestIsJSRegex(t *testing.T) {
	tests := []struct {
		kw   string
		want bool
	}{
		{"/knights?/", true},
		{"/a/gimsuy", true},
		{"/x/ii", true}, // recognised; compiling it fails
		{"/usr/bin", false},
		{"/x/d", false},
		{"//", false},
		{"///", true}, // the pattern "/"
		{"/a\nb/", false},
		{"tavern", false},
	}
	for _, tt := range tests {
		if got := IsJSRegex(tt.kw); got != tt.want {
			t.Errorf("IsJSRegex(%q) = %v, want %v", tt.kw, got, tt.want)
		}
	}
}

// hits lists pattern indices that hit in text, sorted.
func hits(m *Matcher, text string) []int {
	var out []int
	m.Occurrences(text, func(o Occurrence) {
		for _, p := range m.GroupPatterns(o.Group) {
			if o.Bounded || !m.WantsBoundaries(p) {
				out = append(out, p)
			}
		}
	})
	slices.Sort(out)
	return slices.Compact(out)
}

func TestCompileWithJavaScript(t *testing.T) {
	ps := []Pattern{
		{Text: "tavern"},                        // 0
		{Text: "Straße"},                        // 1
		{Text: "/dra.on/i"},                     // 2
		{Text: "/^ash/y"},                       // 3: sticky: only at the start
		{Text: "/a*/"},                          // 4: an empty match is a hit
		{Text: "/(unclosed/"},                   // 5: does not compile
		{Text: "/dra.on/i", Literal: true},      // 6: the same text, as text
		{Text: "  "},                            // 7: blank, matched as written
		{Text: "bar", WholeWords: true},         // 8
		{Text: "龙", WholeWords: true},           // 9: no exemption for CJK
		{Text: "ΟΔΥΣΣΕΥΣ"},                      // 10
		{Text: "/usr/bin"},                      // 11: a literal in JavaScript
		{Text: "/x/gg", WholeWords: true},       // 12: repeated flag
		{Text: "/Gate\\s+\\d+/", Literal: true}, // 13
	}
	m, errs := CompileWith(ps, Options{Fold: FoldJSLower, Bounded: JSWordBoundaries, Regex: ECMAScript, Blank: true})
	var bad []int
	for _, err := range errs {
		bad = append(bad, err.(*PatternError).Index)
	}
	if !slices.Equal(bad, []int{5, 12}) {
		t.Fatalf("compile errors for %v, want [5 12]: %v", bad, errs)
	}
	tests := []struct {
		text string
		want []int
	}{
		{"The TAVERN", []int{0, 4}},
		{"ＴＡＶＥＲＮ strasse", []int{4}},
		{"a DRAGON and ash", []int{2, 4}},
		{"ash first", []int{3, 4}},
		{"see /usr/bin and /dra.on/i", []int{2, 4, 6, 11}},
		{"a  b bar barrel", []int{4, 7, 8}},
		{"a龙b", []int{4, 9}},
		{"the 龙 flies", []int{4}},
		{"ΟΔΥΣΣΕΥΣ", []int{4, 10}},
		{"ΟΔΥΣΣΕΥΣΑ", []int{4}}, // the final sigma is not final any more
		{"/gate\\s+\\d+/", []int{4, 13}},
	}
	for _, tt := range tests {
		if got := hits(m, tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("%q: hits %v, want %v", tt.text, got, tt.want)
		}
	}
}

// Scanner.Grow on a text that grew by " "+chunk reports exactly the literal
// occurrences of a full scan that end after the old length, and every
// regular-expression occurrence, whatever the fold.
func TestScannerGrow(t *testing.T) {
	words := []string{"ash", "ΑΣ", "σ", "ledger", "ash ledger", "İ", "i̇", "ς", "Bar", "bar", "龙", "a'", "x", "ΟΔΥΣΣΕΥΣ", "ﬁre", "\u212A", "\u017Fash"}
	var ps []Pattern
	for i, w := range words {
		ps = append(ps, Pattern{Text: w, WholeWords: i%3 == 0})
	}
	ps = append(ps, Pattern{Text: "/sh l/"}, Pattern{Text: "/ash$/i"}, Pattern{Text: "/le(dg)+er/"}, Pattern{Text: "/σ/i"})
	r := rand.New(rand.NewSource(2))
	for _, o := range []Options{
		{Fold: FoldJSLower, Regex: ECMAScript},
		{Fold: FoldJSIgnoreCase, Bounded: JSWordBoundaries, Regex: ECMAScript},
		{Fold: FoldNone, Bounded: JSWordBoundaries},
		{},
	} {
		m, _ := CompileWith(ps, o)
		for i := 0; i < 300; i++ {
			sc := m.Scanner()
			text, from := "", 0
			for n := 1 + r.Intn(4); n > 0; n-- {
				var b strings.Builder
				for k := r.Intn(5); k >= 0; k-- {
					b.WriteString(words[r.Intn(len(words))])
					if r.Intn(2) == 0 {
						b.WriteByte(' ')
					}
				}
				if text != "" {
					from = len(text)
					text += " "
				}
				text += b.String()
				var want, got []string
				m.Occurrences(text, func(oc Occurrence) {
					if oc.End > from || m.IsRegexGroup(oc.Group) {
						want = append(want, fmt.Sprint(oc))
					}
				})
				sc.Grow(text, from, nil, func(oc Occurrence) { got = append(got, fmt.Sprint(oc)) })
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("fold %d, %q from %d:\n got %v\nwant %v", o.Fold, text, from, got, want)
				}
			}
		}
	}
}

func TestRequiredLiteral(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{`knights?\b`, "knight"},
		{`dra.on`, "dra"},
		{`Gate\s+\d+`, "Gate"},
		{`\bmoon(light)?\b`, "moon"},
		{`龍|龙`, ""},
		{`tav(er)?n`, "tav"},
		{`(?:ab|ac)d`, "a"}, // the parser factors the common prefix out
		{`(riv)+er`, "riv"},
		{`x{2}yz`, "yz"}, // each literal on its own: "xx" comes apart
		{`a*`, ""},
		{`(o)\1n`, ""},  // a backreference: no prefilter
		{`\101b`, ""},   // octal in JavaScript
		{`(?<=a)b`, ""}, // lookbehind: Go cannot read it
		{`[^]`, ""},
	}
	for _, tt := range tests {
		if got := requiredLiteral(tt.pattern); got != tt.want {
			t.Errorf("requiredLiteral(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
}

// The prefilter never hides a match: every expression finds what it finds
// when run alone, on random text, and one whose literal is absent is not run.
func TestPrefilter(t *testing.T) {
	kws := []string{"/knights?\\b/", "/dra.on/i", "/Gate\\s+\\d+/", "/(riv)+er/", "/ΣΟΦ/", "/σοφ/u", "/x{2}yz/", "/^ash/m", "/a*/", "/Moon(light)?/y"}
	var ps []Pattern
	for _, k := range kws {
		ps = append(ps, Pattern{Text: k})
	}
	m, errs := CompileWith(ps, Options{Regex: ECMAScript})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	words := strings.Fields("KNIGHT knights Dragon draxon gate 7 Gate  12 river rivriver σοφία ΣΟΦΊΑ xxyz XXYZ ash\nash moonlight Moon the")
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for k := r.Intn(6); k > 0; k-- {
			b.WriteString(words[r.Intn(len(words))] + " ")
		}
		text := b.String()
		got := map[int]bool{}
		m.Occurrences(text, func(o Occurrence) { got[o.Group-len(m.groups)] = true })
		for k, re := range m.jsRegexes {
			alone := false
			re.each(text, func(int, int) { alone = true })
			if got[k] != alone {
				t.Fatalf("%s on %q: %v with the prefilter, %v alone", kws[k], text, got[k], alone)
			}
		}
	}
	sc := m.Scanner()
	sc.Grow("nothing here", 0, nil, func(Occurrence) {})
	for k, kw := range kws {
		if want := m.pre.always[k]; sc.seen[k] != want {
			t.Errorf("%s: seen %v on a text without its literal", kw, sc.seen[k])
		}
	}
}

// The JavaScript folds never panic, agree with x/text on valid text, and map
// every normalised byte back inside the original text, in order.
func FuzzJSFolds(f *testing.F) {
	for _, s := range []string{"ΟΔΥΣΣΕΥΣ", "İstanbul", "ﬁre ＴＡＶＥＲＮ", "a'Σ.", "\xff\xfe", "龙 K ß"} {
		f.Add(s)
	}
	lower := cases.Lower(language.Und)
	f.Fuzz(func(t *testing.T, s string) {
		for _, n := range []normalized{jsLower(s), jsIgnoreCase(s)} {
			last := 0
			for i := range n.text {
				a, b := n.original(i, i+1)
				if a < last || a > b || b > len(s) {
					t.Fatalf("%q: byte %d maps to %d..%d", s, i, a, b)
				}
				last = a
			}
		}
		if utf8.ValidString(s) {
			if got, want := JSLower(s), lower.String(s); got != want {
				t.Fatalf("JSLower(%q) = %q, x/text %q", s, got, want)
			}
		}
	})
}
