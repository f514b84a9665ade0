package match

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Normalize is the form in which keywords and texts are compared: Unicode NFKC
// (full-width ＴＡＶＥＲＮ and half-width ｻｸﾗ become TAVERN and サクラ, the ﬁ
// ligature becomes fi) followed by full Unicode case folding (golang.org/x/text/cases
// Fold, not strings.ToLower: Fold also maps ß to ss and final ς to σ, so that
// German and Greek keywords match every spelling of the word).
//
// Keywords and texts must both go through this one function; two keywords are "the
// same keyword" (lint's keyword-collision) exactly when their Normalize results are
// equal.
func Normalize(s string) string {
	return string(normalize(s, true).text)
}

// Normalized is a normalised text together with the way back to the text it was
// made from, so that a hit found in the normalised text can be reported in the
// original one.
type Normalized struct {
	// Text is the normalised text.
	Text string
	n    normalized
}

// NormalizeOffsets normalises s as Normalize does and keeps the offset mapping.
func NormalizeOffsets(s string) Normalized {
	n := normalize(s, true)
	return Normalized{Text: string(n.text), n: n}
}

// Original maps the byte range [start, end) of the normalised text to the range of
// the original text it came from. A range that starts or ends inside the
// normalisation of one character (the "i" of a ﬁ ligature) widens to the whole
// character, so the result is always a valid range of the original text.
func (n Normalized) Original(start, end int) (int, int) { return n.n.original(start, end) }

// normalized is the internal form: bytes (the automaton scans []byte) and, for
// each byte of text, the original range of the character it came from. When start
// is nil the mapping is the identity (ASCII input: NFKC changes nothing and ASCII
// case folding keeps every byte where it was), which keeps the common case
// allocation-light.
type normalized struct {
	text       []byte
	start, end []int32
	origLen    int
}

func (n normalized) original(s, e int) (int, int) {
	if s < 0 {
		s = 0
	}
	if e > len(n.text) {
		e = len(n.text)
	}
	if n.start == nil {
		return s, e
	}
	if s >= e {
		// An empty range sits before the character at s (or at the end).
		if s >= len(n.text) {
			return n.origLen, n.origLen
		}
		o := int(n.start[s])
		return o, o
	}
	return int(n.start[s]), int(n.end[e-1])
}

// IsASCII says whether s holds ASCII characters only.
func IsASCII(s string) bool { return asciiPrefix(s) == len(s) }

// normalize applies NFKC and, when fold is set, case folding. Regular-expression
// keywords are run on the NFKC form without folding (their own i flag decides
// case), which is why folding is optional.
//
// The mapping is built from norm.Iter, which hands out the NFKC form one
// normalisation segment at a time (a character with its combining marks); folding
// is applied segment by segment too. Case folding is context-free (cases.Fold has
// no Turkish or final-sigma context), so folding segments one by one gives the same
// result as folding the whole string.
func normalize(s string, fold bool) normalized { return normalizeRuns(s, fold, true) }

// normalizeRuns is normalize; asciiRuns off sends every character through the
// normalizer, the reference FuzzNormalizeFastPath holds the fast path to.
func normalizeRuns(s string, fold, asciiRuns bool) normalized {
	if asciiRuns {
		if ok, cased := unchanged(s, fold); ok {
			// ASCII, or text NFKC leaves as it is whose non-ASCII letters
			// fold to a letter of the same size (CJK, kana, Thai, most
			// punctuation, and É → é, Ж → ж): every character stays where
			// it was, so the map is the identity (a keyword, being whole
			// characters, matches whole characters).
			return normalized{text: foldInPlace([]byte(s), fold, cased), origLen: len(s)}
		}
	}
	out := make([]byte, 0, len(s)+len(s)/8)
	start := make([]int32, 0, cap(out))
	end := make([]int32, 0, cap(out))
	var (
		it      norm.Iter
		pending []byte
		folder  *cases.Caser
		last    int
		buf     [64]byte
	)
	pending = buf[:0]
	flush := func(to int) {
		seg := pending
		if fold {
			seg = foldSegment(seg, &folder)
		}
		out = append(out, seg...)
		for range seg {
			start = append(start, int32(last))
			end = append(end, int32(to))
		}
		pending = pending[:0]
		last = to
	}
	for i := 0; i < len(s); {
		// An ASCII character followed by another (or by the end) is its own
		// NFKC segment: no mark can combine with it. Most text is such runs.
		for ; asciiRuns && i < len(s) && s[i] < utf8.RuneSelf && (i+1 == len(s) || s[i+1] < utf8.RuneSelf); i++ {
			c := s[i]
			if fold && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			out = append(out, c)
			start = append(start, int32(i))
			end = append(end, int32(i+1))
		}
		if i == len(s) {
			break
		}
		// The rest goes through the normalizer up to the next ASCII
		// character, before which there is always a segment boundary.
		last = i
		it.InitString(norm.NFKC, s[i:])
		base := i
		for !it.Done() {
			pending = append(pending, it.Next()...)
			// Characters whose decomposition spans several segments (㈀ →
			// "(ᄀ)") come out in several pieces before the iterator moves on
			// in the input; they all map to that one character.
			if p := base + it.Pos(); p > last {
				flush(p)
				if p < len(s) && s[p] < utf8.RuneSelf {
					break
				}
			}
		}
		if len(pending) > 0 {
			flush(len(s))
		}
		i = last
	}
	return normalized{text: out, start: start, end: end, origLen: len(s)}
}

// unchanged reports valid UTF-8 that NFKC leaves as it is, in which every
// character starts a normalisation segment of its own (no combining marks: the
// slow path maps a mark and its base as one), and in which, when fold is set,
// every character with case folds to one character of the same size that
// starts a segment too (sameSizeFold). cased says whether a non-ASCII
// character has case, so that foldInPlace must look past ASCII.
//
// A character that starts a segment (BoundaryBefore: it combines with
// nothing before it, which rules out marks and the Hangul vowels and finals
// that compose with a syllable) and is NFKC-normal on its own is left alone
// by NFKC wherever it stands, so a text of such characters is normal without
// the normaliser reading it again. ASCII is skipped eight bytes at a time;
// what a character of the Basic Multilingual Plane is, is worked out once per
// process (classOf).
func unchanged(s string, fold bool) (ok, cased bool) {
	for i := asciiPrefix(s); i < len(s); {
		if s[i] < utf8.RuneSelf {
			i += 1 + asciiPrefix(s[i+1:])
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError {
			return false, false
		}
		c := classOf(r)
		if c&classNormal == 0 {
			return false, false
		}
		if fold && c&classFoldable != 0 {
			if c&classSameSize == 0 {
				return false, false
			}
			cased = true
		}
		i += size
	}
	return true, cased
}

// A rune's class, as unchanged needs it: known (computed), normal (starts a
// segment and is NFKC-normal alone), foldable (case folding may change it)
// and same-size (its fold keeps its place: sameSizeFold).
const (
	classKnown uint32 = 1 << iota
	classNormal
	classFoldable
	classSameSize
)

// runeClasses caches the class of each rune of the Basic Multilingual Plane,
// four bits a rune, eight runes a word; a zero nibble is not yet computed.
// Classes are filled in with atomic ORs, so concurrent scans share it.
var runeClasses [0x10000 / 8]atomic.Uint32

func classOf(r rune) uint32 {
	if r >= 0x10000 {
		return computeClass(r)
	}
	shift := 4 * (uint32(r) & 7)
	w := &runeClasses[r>>3]
	if c := w.Load() >> shift & 0xf; c != 0 {
		return c
	}
	c := computeClass(r)
	w.Or(c << shift)
	return c
}

func computeClass(r rune) uint32 {
	c := classKnown
	var buf [utf8.UTFMax]byte
	b := buf[:utf8.EncodeRune(buf[:], r)]
	if norm.NFKC.Properties(b).BoundaryBefore() && norm.NFKC.IsNormal(b) {
		c |= classNormal
	}
	if foldable(r) {
		c |= classFoldable
		if sameSizeFold(r) != 0 {
			c |= classSameSize
		}
	}
	return c
}

// asciiPrefix is the length of s's leading run of ASCII bytes, read sixteen
// and then eight bytes at a time.
func asciiPrefix(s string) int {
	i := 0
	for ; i+16 <= len(s); i += 16 { // two words a turn: half the loop's own work
		if (load64(s[i:])|load64(s[i+8:]))&highBits != 0 {
			break
		}
	}
	for ; i+8 <= len(s); i += 8 {
		if load64(s[i:])&highBits != 0 {
			break
		}
	}
	for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
	}
	return i
}

// highBits has the high bit of each of eight bytes: a word of eight ASCII
// bytes has none of them.
const highBits = 0x8080808080808080

// load64 is s's first eight bytes, little-endian (one load once compiled).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// foldInPlace case-folds b, which unchanged accepted, without moving a byte:
// ASCII letters are lowered and, when cased, the other letters are replaced
// by their same-size folds.
func foldInPlace(b []byte, fold, cased bool) []byte {
	if !fold {
		return b
	}
	for i := 0; i < len(b); {
		if i+8 <= len(b) {
			if w := binary.LittleEndian.Uint64(b[i:]); w&highBits == 0 {
				binary.LittleEndian.PutUint64(b[i:], lowerASCII8(w))
				i += 8
				continue
			}
		}
		c := b[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + ('a' - 'A')
			}
			i++
			continue
		}
		if !cased {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if foldable(r) {
			utf8.EncodeRune(b[i:], sameSizeFold(r))
		}
		i += size
	}
	return b
}

// lowerASCII8 lowers the upper-case letters among eight ASCII bytes: a
// byte's high bit is set by adding 0x80-'A' when it is 'A' or more, and by
// adding 0x80-'Z'-1 when it is past 'Z'; where the first is set and not the
// second, 0x20 is added.
func lowerASCII8(w uint64) uint64 {
	const ones = 0x0101010101010101
	atLeastA := w + ones*(0x80-'A')
	pastZ := w + ones*(0x80-'Z'-1)
	upper := atLeastA &^ pastZ & (ones * 0x80)
	return w | upper>>2
}

// twoByteFolds holds, for each two-byte character (U+0080–U+07FF: Latin,
// Greek, Cyrillic, Armenian, Hebrew, Arabic), what full case folding makes
// of it when that is one two-byte character which starts a normalisation
// segment, and 0 otherwise; built from cases.Fold on first use.
var twoByteFolds = sync.OnceValue(func() *[0x800]rune {
	var t [0x800]rune
	c := cases.Fold()
	for r := rune(utf8.RuneSelf); r < 0x800; r++ {
		if !foldable(r) {
			continue
		}
		f := c.String(string(r))
		g, size := utf8.DecodeRuneInString(f)
		if size != len(f) || size != 2 || g == utf8.RuneError {
			continue
		}
		if !norm.NFKC.PropertiesString(f).BoundaryBefore() || !norm.NFKC.IsNormalString(f) {
			continue
		}
		t[r] = g
	}
	return &t
})

// sameSizeFold is what case folding makes of r when that keeps r's place
// and size (see twoByteFolds), or 0.
func sameSizeFold(r rune) rune {
	if r >= 0x800 {
		return 0
	}
	return twoByteFolds()[r]
}

// foldable says whether case folding may change r.
func foldable(r rune) bool {
	return unicode.SimpleFold(r) != r || unicode.IsLower(r) || unicode.IsUpper(r) || unicode.IsTitle(r)
}

// foldSegment case-folds one segment. Segments without cased letters (CJK, Thai,
// digits, punctuation) are returned as they are, so that texts in scripts without
// case do not pay for the cases transformer.
func foldSegment(seg []byte, folder **cases.Caser) []byte {
	ascii := true
	needs := false
	for i := 0; i < len(seg); {
		c := seg[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				needs = true
			}
			i++
			continue
		}
		ascii = false
		r, size := utf8.DecodeRune(seg[i:])
		if foldable(r) {
			needs = true
		}
		i += size
	}
	if !needs {
		return seg
	}
	if ascii {
		for i, c := range seg {
			if 'A' <= c && c <= 'Z' {
				seg[i] = c + ('a' - 'A')
			}
		}
		return seg
	}
	if *folder == nil {
		c := cases.Fold()
		*folder = &c
	}
	return (*folder).Bytes(seg)
}
