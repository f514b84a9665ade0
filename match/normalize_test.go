package match

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var normalizeSeeds = []string{
	"", "a", "É", "e\u0301", "abc e\u0301 def", "héllo World", "霧の谷 is HERE", "ﬁne ﬂy",
	"㈀ (x)", "A\u0301\u0323b", "ΣΑΣ σας", "x\xffy", "Straße", "ＡＢＣ１２３", "a\u0300",
	"tail e\u0301", "\u0301lead", "İstanbul", "K\u212a", "霧の谷", "日本語 TEXT です。", "カ\u3099", "한국어 ok", "a\u3000b",
	"Привет Мир", "ǅemal", "ΌΣΟΣ ς", "Ⅻ Ａ", "Ꭰ ꭰ",
	"\u1100\u1161 한", "가\u11a8", "\u0b13\u0b3e", "\u212b ring", "\u0958", "emoji 😀 🇯🇵",
	"abcdefgh\u0301ijklmnop", "abcdefghij한국어abcdefghijkl",
}

// TestFastPathEveryRune holds the fast path to the normaliser for every
// character of the Basic Multilingual Plane and the first supplementary one,
// alone, between ASCII letters, and after a letter and a Hangul syllable it
// might compose with.
func TestFastPathEveryRune(t *testing.T) {
	for r := rune(0x80); r < 0x20000; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		c := string(r)
		for _, s := range []string{c, "abcdefgh" + c + "b", "e" + c, "가" + c + c} {
			for _, fold := range []bool{true, false} {
				got, want := normalize(s, fold), normalizeRuns(s, fold, false)
				if string(got.text) != string(want.text) {
					t.Fatalf("normalize(%q, %v) = %q, want %q", s, fold, got.text, want.text)
				}
				if got.start == nil && want.start != nil && !identity(want) {
					t.Fatalf("normalize(%q, %v): the identity map, but the normaliser moves characters", s, fold)
				}
			}
		}
	}
}

// identity says whether n maps every byte to the character it is part of in
// a text of the same length.
func identity(n normalized) bool {
	if len(n.text) != n.origLen {
		return false
	}
	text := string(n.text)
	for i := range text {
		_, size := utf8.DecodeRuneInString(text[i:])
		for j := i; j < i+size; j++ {
			if int(n.start[j]) != i || int(n.end[j]) != i+size {
				return false
			}
		}
	}
	return true
}

// FuzzNormalizeFastPath: the ASCII fast path gives the same text and the
// same map back to the original as normalising every character.
func FuzzNormalizeFastPath(f *testing.F) {
	for _, s := range normalizeSeeds {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, fold bool) {
		got, want := normalize(s, fold), normalizeRuns(s, fold, false)
		if string(got.text) != string(want.text) {
			t.Fatalf("normalize(%q, %v) = %q, want %q", s, fold, got.text, want.text)
		}
		if got.start == nil { // ASCII, or text NFKC leaves alone: the identity map
			if len(want.text) != len(s) {
				t.Fatalf("normalize(%q): no map, but the text changed length", s)
			}
			// Every range of whole characters maps back as the reference
			// maps it (hits are whole characters: keywords are).
			var cuts []int
			for i := range string(want.text) {
				cuts = append(cuts, i)
			}
			cuts = append(cuts, len(want.text))
			for a := range cuts {
				for b := a; b < len(cuts) && b <= a+4; b++ {
					gs, ge := got.original(cuts[a], cuts[b])
					ws, we := want.original(cuts[a], cuts[b])
					if gs != ws || ge != we {
						t.Fatalf("normalize(%q, %v): [%d,%d) maps to [%d,%d), want [%d,%d)", s, fold, cuts[a], cuts[b], gs, ge, ws, we)
					}
				}
			}
			return
		}
		if !slices.Equal(got.start, want.start) || !slices.Equal(got.end, want.end) {
			t.Fatalf("normalize(%q, %v) maps %v/%v, want %v/%v", s, fold, got.start, got.end, want.start, want.end)
		}
	})
}

// TestFastPathTakesSameSizeFolds: text whose letters fold in place (É, Ж, Σ)
// keeps the identity map, so a Latin book with a few accented names costs no
// offset map; folds that change size or need the normaliser do not.
func TestFastPathTakesSameSizeFolds(t *testing.T) {
	for _, c := range []struct {
		in       string
		identity bool
	}{
		{"Élan Keep and 霧の谷", true},
		{"Привет, Мир", true},
		{"ΌΣΟΣ ς", true},
		{"Straße", false},   // ß → ss
		{"İstanbul", false}, // İ → i̇, two characters
		{"e\u0301", false},  // a combining mark
		{"ＡＢＣ", false},      // NFKC changes it
	} {
		n := normalize(c.in, true)
		if got := n.start == nil; got != c.identity {
			t.Errorf("normalize(%q): identity map %v, want %v", c.in, got, c.identity)
		}
		if want := normalizeRuns(c.in, true, false); string(n.text) != string(want.text) {
			t.Errorf("normalize(%q) = %q, want %q", c.in, n.text, want.text)
		}
	}
}

// TestLowerASCII8 lowers eight bytes at once as lowering each does, for every
// ASCII byte in every position.
func TestLowerASCII8(t *testing.T) {
	for c := range byte(0x80) {
		for pos := range 8 {
			b := []byte("@Z[`az{A")
			b[pos] = c
			want := []byte(strings.ToLower(string(b)))
			var got [8]byte
			binary.LittleEndian.PutUint64(got[:], lowerASCII8(binary.LittleEndian.Uint64(b)))
			if string(got[:]) != string(want) {
				t.Fatalf("lowerASCII8(%q) = %q, want %q", b, got, want)
			}
		}
	}
}

// TestASCIIPrefix holds the word-at-a-time scan to the byte-by-byte answer
// for a non-ASCII byte at every place of texts of every length up to
// three sixteen-byte turns and a tail.
func TestASCIIPrefix(t *testing.T) {
	for n := 0; n <= 53; n++ {
		for at := 0; at <= n; at++ {
			b := []byte(strings.Repeat("a", n))
			if at < n {
				b[at] = 0x80 + byte(at)
			}
			want := at
			if got := asciiPrefix(string(b)); got != want {
				t.Errorf("asciiPrefix of %d bytes with a non-ASCII byte at %d = %d, want %d", n, at, got, want)
			}
		}
	}
}
