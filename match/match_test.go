package match

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"TAVERN", "tavern"},
		{"ＴＡＶＥＲＮ", "tavern"},     // full-width
		{"ｻｸﾗ", "サクラ"},           // half-width katakana
		{"ｶﾞ", "ガ"},              // half-width with voiced mark composes
		{"ﬁre", "fire"},          // ligature expands
		{"Straße", "strasse"},    // full folding, not ToLower
		{"ΟΔΥΣΣΕΥΣ", "οδυσσευσ"}, // final sigma folds like σ
		{"οδυσσευς", "οδυσσευσ"},
		{"Москва", "москва"},
		{"①", "1"},
		{"", ""},
		{"桜の宿", "桜の宿"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeOffsets(t *testing.T) {
	tests := []struct {
		in         string
		s, e       int // range in the normalised text
		wantS      int
		wantE      int
		wantOrigin string
	}{
		{"the ﬁre", 4, 8, 4, 9, "ﬁre"},     // "fire" → whole ligature + "re"
		{"the ﬁre", 5, 8, 4, 9, "ﬁre"},     // "ire" widens to the ligature
		{"ＴＡＶＥＲＮ!", 0, 6, 0, 18, "ＴＡＶＥＲＮ"}, // 3 bytes each in the original
		{"ｻｸﾗが", 0, 9, 0, 9, "ｻｸﾗ"},
		{"ascii", 1, 3, 1, 3, "sc"},
	}
	for _, tt := range tests {
		n := NormalizeOffsets(tt.in)
		s, e := n.Original(tt.s, tt.e)
		if s != tt.wantS || e != tt.wantE || tt.in[s:e] != tt.wantOrigin {
			t.Errorf("%q: Original(%d,%d) = %d,%d (%q), want %d,%d (%q)", tt.in, tt.s, tt.e, s, e, tt.in[s:e], tt.wantS, tt.wantE, tt.wantOrigin)
		}
	}
}

func TestIsRegexAndCompile(t *testing.T) {
	tests := []struct {
		kw      string
		isRegex bool
		err     bool
		text    string
		match   bool
	}{
		{"/knights?/", true, false, "two knights", true},
		{"/KNIGHT/i", true, false, "a knight", true},
		{"/KNIGHT/", true, false, "a knight", false},
		{"/^b$/m", true, false, "a\nb\nc", true},
		{"/^b$/", true, false, "a\nb\nc", false},
		{"/a.b/s", true, false, "a\nb", true},
		{"/a.b/", true, false, "a\nb", false},
		{"/x/g", true, true, "", false},        // unknown flag
		{"/usr/bin", true, true, "", false},    // letters after the slash are flags
		{"/(unclosed/", true, true, "", false}, // RE2 error
		{"//", false, false, "", false},
		{"/", false, false, "", false},
		{"a/b/", false, false, "", false},
		{"/path/1", false, false, "", false}, // a digit is no flag: literal
		{"tavern", false, false, "", false},
	}
	for _, tt := range tests {
		if got := IsRegex(tt.kw); got != tt.isRegex {
			t.Errorf("IsRegex(%q) = %v, want %v", tt.kw, got, tt.isRegex)
			continue
		}
		if !tt.isRegex {
			continue
		}
		re, err := CompileRegex(tt.kw)
		if (err != nil) != tt.err {
			t.Errorf("CompileRegex(%q) error = %v, want error %v", tt.kw, err, tt.err)
			continue
		}
		if err == nil && re.MatchString(tt.text) != tt.match {
			t.Errorf("%q on %q: match = %v, want %v", tt.kw, tt.text, !tt.match, tt.match)
		}
	}
}

func TestNoWordBoundaries(t *testing.T) {
	tests := []struct {
		kw   string
		want bool
	}{
		{"tavern", false},
		{"Москва", false},
		{"서울", false}, // Korean is written with spaces
		{"旅館", true},
		{"サクラ", true},
		{"ｻｸﾗ", true},
		{"ラーメン", true},
		{"ภาษาไทย", true},
		{"ພາສາລາວ", true},
		{"ខ្មែរ", true},
		{"東京tower", true}, // mixed: see NoWordBoundaries
		{"3号", true},
		{"", false},
	}
	for _, tt := range tests {
		if got := NoWordBoundaries(tt.kw); got != tt.want {
			t.Errorf("NoWordBoundaries(%q) = %v, want %v", tt.kw, got, tt.want)
		}
	}
}

// found renders hits as "pattern:original text" for readable comparisons.
func found(ps []Pattern, text string, hits []Hit) string {
	var parts []string
	for _, h := range hits {
		parts = append(parts, fmt.Sprintf("%s@%d=%s", ps[h.Pattern].Text, h.Start, text[h.Start:h.End]))
	}
	return strings.Join(parts, " ")
}

func TestFind(t *testing.T) {
	tests := []struct {
		name string
		ps   []Pattern
		text string
		want string
	}{
		{"case-insensitive", []Pattern{{Text: "Tavern"}}, "THE TAVERN", "Tavern@4=TAVERN"},
		{"full-width text", []Pattern{{Text: "tavern"}}, "ＴＡＶＥＲＮだ", "tavern@0=ＴＡＶＥＲＮ"},
		{"full-width keyword", []Pattern{{Text: "ＴＡＶＥＲＮ"}}, "a tavern", "ＴＡＶＥＲＮ@2=tavern"},
		{"half-width kana", []Pattern{{Text: "ｻｸﾗ"}}, "庭のサクラ", "ｻｸﾗ@6=サクラ"},
		{"half-width kana in text", []Pattern{{Text: "サクラ"}}, "庭のｻｸﾗ", "サクラ@6=ｻｸﾗ"},
		{"ligature", []Pattern{{Text: "fire"}}, "the ﬁre", "fire@4=ﬁre"},
		{"substring without whole words", []Pattern{{Text: "bar"}}, "a barrel", "bar@2=bar"},
		{"whole words blocks", []Pattern{{Text: "bar", WholeWords: true}}, "a barrel", ""},
		{"whole words at punctuation", []Pattern{{Text: "bar", WholeWords: true}}, "(bar), bar.", "bar@1=bar bar@7=bar"},
		{"whole words digit after", []Pattern{{Text: "bar", WholeWords: true}}, "bar2", ""},
		{"whole words digit before", []Pattern{{Text: "bar", WholeWords: true}}, "2bar", ""},
		{"whole words underscore is no letter", []Pattern{{Text: "bar", WholeWords: true}}, "_bar_", "bar@1=bar"},
		{"whole words Cyrillic", []Pattern{{Text: "дом", WholeWords: true}}, "домик и дом", "дом@14=дом"},
		{"whole words Greek", []Pattern{{Text: "λόγος", WholeWords: true}}, "ΛΌΓΟΣ, λόγοςx", "λόγος@0=ΛΌΓΟΣ"},
		{"whole words accented neighbour", []Pattern{{Text: "caf", WholeWords: true}}, "café", ""},
		{"whole words other-script neighbour", []Pattern{{Text: "tavern", WholeWords: true}}, "東京tavern", ""},
		{"whole words full-width digit neighbour", []Pattern{{Text: "bar", WholeWords: true}}, "bar２", ""},
		{"CJK substring even with whole words", []Pattern{{Text: "旅館", WholeWords: true}}, "この旅館は古い", "旅館@6=旅館"},
		{"Thai substring", []Pattern{{Text: "แมว", WholeWords: true}}, "ฉันรักแมวมาก", "แมว@18=แมว"},
		{"overlapping keywords", []Pattern{{Text: "bar"}, {Text: "barrel"}}, "barrel", "bar@0=bar barrel@0=barrel"},
		{"nested keywords", []Pattern{{Text: "sleeping stag"}, {Text: "stag"}}, "the Sleeping Stag", "sleeping stag@4=Sleeping Stag stag@13=Stag"},
		{"shared normalised keyword", []Pattern{{Text: "Maren", Owner: 1}, {Text: "MAREN", Owner: 2, WholeWords: true}}, "Marenko, Maren", "Maren@0=Maren Maren@9=Maren MAREN@9=Maren"},
		{"regex", []Pattern{{Text: `/\bknights?\b/i`}}, "Two Knights and a knight", `/\bknights?\b/i@4=Knights /\bknights?\b/i@18=knight`},
		{"regex case-sensitive", []Pattern{{Text: `/Knight/`}}, "knight Knight", `/Knight/@7=Knight`},
		{"regex on full-width text", []Pattern{{Text: `/knight/i`}}, "ＫＮＩＧＨＴ", `/knight/i@0=ＫＮＩＧＨＴ`},
		{"regex empty match ignored", []Pattern{{Text: `/x*/`}}, "abc", ""},
		{"empty keyword never matches", []Pattern{{Text: ""}, {Text: "  "}}, "a  b", ""},
		{"multibyte offsets", []Pattern{{Text: "stag"}}, "ñandú — stag", "stag@12=stag"},
		{"repeated", []Pattern{{Text: "aa"}}, "aaa", "aa@0=aa aa@1=aa"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, errs := Compile(tt.ps)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := found(tt.ps, tt.text, m.Find(tt.text)); got != tt.want {
				t.Errorf("Find(%q)\n got: %s\nwant: %s", tt.text, got, tt.want)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	ps := []Pattern{{Text: "ok"}, {Text: "/(bad/"}, {Text: "/x/q"}, {Text: "/ok/i"}}
	m, errs := Compile(ps)
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want 2", errs)
	}
	for k, want := range []int{1, 2} {
		pe, ok := errs[k].(*PatternError)
		if !ok || pe.Index != want {
			t.Errorf("error %d = %v, want index %d", k, errs[k], want)
		}
	}
	if got := found(ps, "ok (bad OK", m.Find("ok (bad OK")); got != "ok@0=ok /ok/i@0=ok ok@8=OK /ok/i@8=OK" {
		t.Errorf("hits = %s", got)
	}
}

func TestGroups(t *testing.T) {
	ps := []Pattern{
		{Text: "Tavern", Owner: 3},
		{Text: "ＴＡＶＥＲＮ", Owner: 1},
		{Text: "inn", Owner: 1},
		{Text: "/tavern/", Owner: 2}, // regexes are not literal groups
		{Text: "tavern", Owner: 3},
	}
	m, _ := Compile(ps)
	got := fmt.Sprint(m.Groups())
	want := "[{tavern [0 1 4] [1 3]} {inn [2] [1]}]"
	if got != want {
		t.Errorf("Groups = %s, want %s", got, want)
	}
}

func TestFindNoPatterns(t *testing.T) {
	m, errs := Compile(nil)
	if len(errs) != 0 || len(m.Find("anything")) != 0 {
		t.Fatal("empty matcher should find nothing")
	}
}

func FuzzFind(f *testing.F) {
	f.Add("bar", "a barrel of ＴＡＶＥＲＮ ale", true)
	f.Add("ｻｸﾗ", "庭のサクラとｻｸﾗ", false)
	f.Add("/kn(igh)?t/i", "Knight ﬁre ㈀", false)
	f.Add("ﬁ", "ﬃ\xff\xfe ﬁ", true)
	f.Fuzz(func(t *testing.T, kw, text string, whole bool) {
		ps := []Pattern{{Text: kw, WholeWords: whole}, {Text: "a"}, {Text: "/[a-z]+/i"}}
		m, _ := Compile(ps)
		hits := m.Find(text)
		for i, h := range hits {
			if h.Start < 0 || h.End > len(text) || h.Start > h.End {
				t.Fatalf("hit %+v out of range for %d bytes", h, len(text))
			}
			if utf8.ValidString(text) && (!utf8.RuneStart(text[h.Start]) || h.End < len(text) && !utf8.RuneStart(text[h.End])) {
				t.Fatalf("hit %+v splits a character of %q", h, text)
			}
			if i > 0 {
				p := hits[i-1]
				if p.Start > h.Start || p.Start == h.Start && p.Pattern > h.Pattern {
					t.Fatalf("hits not sorted: %+v then %+v", p, h)
				}
			}
		}
		_ = Normalize(text)
	})
}

// TestFindAgainstNaive compares the matcher with a plain search over many
// small, heavily overlapping patterns, many of them sharing one normalised
// form, half of them whole-word.
func TestFindAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	alphabet := "abAB c1"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	var ps []Pattern
	for i := 0; i < 1500; i++ {
		ps = append(ps, Pattern{Text: word(1 + r.Intn(5)), WholeWords: r.Intn(2) == 0})
	}
	m, errs := Compile(ps)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for round := 0; round < 15; round++ {
		text := word(200)
		lower := strings.ToLower(text)
		var want []Hit
		for s := 0; s < len(text); s++ {
			for pi, p := range ps {
				kw := strings.ToLower(p.Text)
				if strings.TrimSpace(kw) == "" || !strings.HasPrefix(lower[s:], kw) {
					continue
				}
				e := s + len(kw)
				if p.WholeWords && (s > 0 && IsWordRune(rune(text[s-1])) || e < len(text) && IsWordRune(rune(text[e]))) {
					continue
				}
				want = append(want, Hit{Pattern: pi, Start: s, End: e})
			}
		}
		got := m.Find(text)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("text %q: %d hits, want %d", text, len(got), len(want))
		}
	}
}

// TestAutomatonBuiltOnFirstScan: compiling keywords does not build the
// automaton; the first scan does, once, and finds what it should.
func TestAutomatonBuiltOnFirstScan(t *testing.T) {
	m, errs := Compile([]Pattern{{Text: "tavern"}, {Text: "霧の谷"}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if m.ac != nil {
		t.Fatal("Compile built the automaton before any text was scanned")
	}
	if hits := m.Find("the tavern in 霧の谷"); len(hits) != 2 {
		t.Fatalf("hits %v", hits)
	}
	ac := m.ac
	if ac == nil || len(m.lits) != 0 {
		t.Fatal("the first scan did not build the automaton (or kept the keywords it was built from)")
	}
	m.Find("tavern")
	if m.ac != ac {
		t.Error("the automaton was built twice")
	}
}

// TestInvalidKeywordBytesAreReplacementCharacters: a keyword byte that is
// no character stands for U+FFFD, so it never matches inside a character
// of valid text (0xbb is the last byte of 㽻) and matches U+FFFD itself.
func TestInvalidKeywordBytesAreReplacementCharacters(t *testing.T) {
	m, _ := Compile([]Pattern{{Text: "\xbb"}, {Text: "x\xffy"}})
	if hits := m.Find("㽻0 x\u00ffy"); len(hits) != 0 {
		t.Errorf("invalid keyword bytes matched inside characters: %+v", hits)
	}
	want := []Hit{{Pattern: 0, Start: 1, End: 4}, {Pattern: 1, Start: 6, End: 11}, {Pattern: 0, Start: 7, End: 10}}
	if hits := m.Find("a\uFFFDb x\uFFFDy"); !slices.Equal(hits, want) {
		t.Errorf("hits %+v, want %+v: each U+FFFD, and x�y", hits, want)
	}
}
