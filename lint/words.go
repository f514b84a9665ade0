package lint

import (
	"embed"
	"math/bits"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/lorekit/lore/match"
)

// wordFiles are the common-word lists keyword-in-words checks keywords against
// (words/generate.sh says where each comes from): English, the 5,000 most
// frequent words of film and TV subtitles (SUBTLEX-US); German, Spanish,
// French, Italian, Portuguese, Russian, Polish, Chinese and Japanese, the
// stopwords of stopwords-iso. One word a line, most frequent first where the
// source ranks them; a first line starting with # says where it is from.
//
//go:embed words/*.txt
var wordFiles embed.FS

// commonWords is one language's list.
type commonWords struct {
	lang, name string
	words      []string
	// spaced says the language writes spaces between words.
	spaced bool
}

var languages = []struct{ lang, name string }{
	{"en", "English"}, {"de", "German"}, {"es", "Spanish"}, {"fr", "French"}, {"it", "Italian"},
	{"pt", "Portuguese"}, {"ru", "Russian"}, {"pl", "Polish"}, {"zh", "Chinese"}, {"ja", "Japanese"},
}

// topWords is how many of a list's first distinct words tell the book's
// language.
const topWords = 300

var loadWords = sync.OnceValue(func() []*commonWords {
	out := make([]*commonWords, 0, len(languages))
	for _, l := range languages {
		data, err := wordFiles.ReadFile("words/" + l.lang + ".txt")
		if err != nil {
			panic("lint: embedded word list missing: " + err.Error())
		}
		text := string(data)
		cw := &commonWords{lang: l.lang, name: l.name, spaced: l.lang != "zh" && l.lang != "ja",
			words: make([]string, 0, strings.Count(text, "\n")+1)}
		for w := range strings.SplitSeq(text, "\n") {
			if w != "" && w[0] != '#' {
				cw.words = append(cw.words, w)
			}
		}
		out = append(out, cw)
	}
	return out
})

// bookLanguages are the languages of the lorebook's own text whose common
// words its keywords meet in chats: for keywords in spaced scripts and for
// keywords in scripts without spaces.
type bookLanguages struct {
	spaced, unspaced []*commonWords
}

// topOf maps each of the first topWords distinct words of the spaced
// languages' lists to the languages (bits, in the order of languages) it is
// among the first of, so that telling the book's language is one lookup per
// distinct word.
var topOf = sync.OnceValue(func() map[string]uint16 {
	m := make(map[string]uint16, len(languages)*topWords)
	for i, cw := range loadWords() {
		if !cw.spaced {
			continue
		}
		distinct := 0
		for _, w := range cw.words {
			if distinct == topWords {
				break
			}
			if m[w]&(1<<i) == 0 {
				m[w] |= 1 << i
				distinct++
			}
		}
	}
	return m
})

// languages tells the lorebook's languages from its content: for spaced
// scripts, each list whose commonest words make up at least a sixth of the
// words of the text (the best one, and any other at least half as good); for
// scripts without spaces, Japanese when kana are a tenth of those characters,
// else Chinese when Han characters are there at all. A book with almost no
// text is taken to be English.
func (c *Context) languages() *bookLanguages {
	if c.shared.langs != nil {
		return c.shared.langs
	}
	bl := &bookLanguages{}
	ws := c.contentWords()
	total := 0
	lists := loadWords()
	hits := make([]int, len(lists))
	top := topOf()
	for i, w := range ws.list {
		n := ws.count[i]
		total += n
		for set := top[w]; set != 0; set &= set - 1 {
			hits[bits.TrailingZeros16(set)] += n
		}
	}
	scores := make([]float64, len(lists))
	best := 0.0
	for i, cw := range lists {
		if cw.spaced && total > 0 {
			scores[i] = float64(hits[i]) / float64(total)
		}
		best = max(best, scores[i])
	}
	for i, cw := range lists {
		if cw.spaced && scores[i] >= 1.0/6 && scores[i] >= best/2 {
			bl.spaced = append(bl.spaced, cw)
		}
	}
	han, kana, latin := ws.han, ws.kana, ws.latin
	switch {
	case kana > 0 && kana*10 >= kana+han:
		bl.unspaced = append(bl.unspaced, lists[len(lists)-1])
	case han > 0:
		bl.unspaced = append(bl.unspaced, lists[len(lists)-2])
	}
	if len(bl.spaced) == 0 && han+kana < 200 && latin >= han+kana {
		bl.spaced = append(bl.spaced, lists[0]) // little text: a chat is most likely English
	}
	c.shared.langs = bl
	return bl
}

// words is the set of distinct words of every enabled entry's content, each
// with how often it occurs, in the order they first appear, and
// how many of the content's letters are Han, kana and ASCII (which tell the
// book's language).
type words struct {
	*wordTable       // list and count
	han, kana, latin int
}

// contentWords reads every enabled entry's content once: its words, lowered,
// and its letters by script. ASCII, nearly all of most books, is read a byte
// at a time through two tables (wordBytes), and an ASCII word's lowered hash
// is taken as it is read, so the word table never reads it again to find
// it; a new word is copied into the table's chunks of words.
func (c *Context) contentWords() *words {
	if c.shared.words != nil {
		return c.shared.words
	}
	r := &wordReader{c: c, ascii: c.byteClasses(), table: newWordTable()}
	r.low, r.tally = wordBytes(r.ascii)
	for _, e := range c.Book.Entries {
		if e.Enabled {
			r.read(e.Content)
		}
	}
	ws := &words{wordTable: r.table, han: r.han, kana: r.kana, latin: r.latin}
	c.shared.words = ws
	return ws
}

// The bits of byteClasses. letter is 1, so that adding a class's letter bit
// counts letters, and upperCase is 'a'-'A', so that adding a class's
// upperCase bit lowers an ASCII letter.
const (
	letter    = 1         // A–Z or a–z
	wordChar  = 2         // part of a word (not notWordRune)
	nonASCII  = 4         // a byte of a multi-byte character
	upperCase = 'a' - 'A' // A–Z
)

// byteClasses tells, per byte, whether it is an ASCII character that is part
// of a word, a letter, an upper-case one, or a byte of a longer character.
func (c *Context) byteClasses() *[256]uint8 {
	if c.shared.classes != nil {
		return c.shared.classes
	}
	t := new([256]uint8)
	for r := range rune(utf8.RuneSelf) {
		if !c.notWordRune(r) {
			t[r] |= wordChar
		}
		switch {
		case 'A' <= r && r <= 'Z':
			t[r] |= letter | upperCase
		case 'a' <= r && r <= 'z':
			t[r] |= letter
		}
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		t[b] = nonASCII
	}
	c.shared.classes = t
	return t
}

// hashed is the bit set in every wordBytes value of a word byte, so that
// 0 tells every other byte; wordHash hashes each byte with it too.
const hashed = 0x100

// wordBytes turns byteClasses into the two tables read's inner loop reads
// a byte through: low, each ASCII word character lowered with hashed set
// (0 for every other byte), and tally, what the byte adds to a word's count
// of letters (the low 32 bits) and of upper-case letters (the high 32).
func wordBytes(ascii *[256]uint8) (low *[256]uint16, tally *[256]uint64) {
	low, tally = new([256]uint16), new([256]uint64)
	for b, f := range ascii {
		if f&wordChar == 0 {
			continue
		}
		low[b] = uint16(b+int(f&upperCase)) | hashed
		tally[b] = uint64(f & letter)
		if f&upperCase != 0 {
			tally[b] |= 1 << 32
		}
	}
	return low, tally
}

// wordReader is contentWords' state across contents.
type wordReader struct {
	c                *Context
	ascii            *[256]uint8
	low              *[256]uint16 // wordBytes
	tally            *[256]uint64
	table            *wordTable
	lowered          []byte
	han, kana, latin int
}

// read counts the words of s: runs of ASCII word characters in a tight loop
// (a table load for the hash, one for the letters, a byte), and a word
// holding other characters from its start again, rune by rune.
func (r *wordReader) read(s string) {
	ascii, low, tally := r.ascii, r.low, r.tally
	_, _, _ = ascii[0], low[0], tally[0] // nil checked here, not in the loops
	latin := 0
	for i := 0; i < len(s); {
		f := ascii[s[i]]
		if f&wordChar == 0 {
			if f&nonASCII != 0 {
				i = r.other(s, i, i)
				continue
			}
			latin += int(f & letter)
			i++
			continue
		}
		start := i
		h := uint32(fnvOffset)
		var n uint64 // letters, and upper-case ones << 32
		for ; i < len(s); i++ {
			v := low[s[i]]
			if v == 0 {
				break
			}
			h = (h ^ uint32(v)) * fnvPrime
			n += tally[s[i]]
		}
		latin += int(uint32(n))
		if i < len(s) && s[i] >= utf8.RuneSelf {
			i = r.other(s, start, i)
			continue
		}
		w := s[start:i]
		if n>>32 == 0 {
			r.table.addHashed(w, h)
			continue
		}
		r.lowered = append(r.lowered[:0], w...)
		for k, b := range r.lowered {
			r.lowered[k] = byte(low[b])
		}
		r.table.addBytesHashed(r.lowered, h)
	}
	r.latin += latin
}

// other reads on from the character at s[at], not ASCII, in a word that
// starts at start (at when none has), to the end of that word or of the
// character, and returns where it stopped. The ASCII letters it passes over
// it counts.
func (r *wordReader) other(s string, start, at int) int {
	c := r.c
	inWord := start < at
	upper := false
	for i := start; i < at; i++ {
		upper = upper || r.ascii[s[i]]&upperCase != 0
	}
	i := at
	for i < len(s) {
		ch, size := utf8.DecodeRuneInString(s[i:])
		if ch < utf8.RuneSelf {
			f := r.ascii[ch]
			if f&wordChar == 0 {
				break
			}
			r.latin += int(f & letter)
			upper = upper || f&upperCase != 0
			i++
			continue
		}
		word := !c.notWordRune(ch)
		if !word && inWord {
			break // the caller reads it again
		}
		switch {
		case unicode.Is(unicode.Hiragana, ch) || unicode.Is(unicode.Katakana, ch):
			r.kana++
		case unicode.Is(unicode.Han, ch):
			r.han++
		}
		i += size
		if !word {
			break // a character between words
		}
		inWord = true
		upper = upper || unicode.ToLower(ch) != ch
	}
	if !inWord {
		return i
	}
	w := s[start:i]
	if upper {
		w = strings.ToLower(w)
	}
	r.table.add(w)
	return i
}

// notWordRune ends a word of the lorebook's text: anything but what the engine
// counts as part of a word, and the characters of scripts written without
// spaces ("xml注释" holds the word "xml").
func (c *Context) notWordRune(r rune) bool {
	return !c.Engine.WordRune(r) || match.IsNoSpaceRune(r)
}

// insideWord says whether a keyword found at [s, e) of word fires inside the
// word the way a creator does not mean. Not when it is the whole word, nor at
// the word's start before an English ending (dragon in dragons, pay in
// payment, magic in magical, program in programming): matching its own
// plural, tense or derived word is what substring matching is for. Anywhere
// else it is: Ai in said and aim, Nia in insomnia and Niagara, Witch in
// switch, cella in cellar, Hero in heroin.
func insideWord(word string, s, e int) bool {
	if s == 0 && e == len(word) {
		return false
	}
	return s != 0 || !ending(word[:e], word[e:])
}

// isEnding reports an English inflectional or derivational ending (a
// switch: the inside-word rules ask it for every keyword found inside a
// word, and a map lookup cost three times as much).
func isEnding(s string) bool {
	switch s {
	case "s", "es", "'s", "’s", "ed", "ing", "ings", "er", "ers", "or", "ors", "est",
		"ment", "ments", "ness", "ful", "less", "ly", "able", "ible", "ish", "ist", "ists",
		"ism", "ic", "ics", "ical", "al", "ally", "ual", "ian", "ians", "ion", "ions", "ation",
		"ations", "ity", "ive", "ous", "y", "ies", "ie", "en", "hood", "ship", "dom", "ward",
		"wards", "like":
		return true
	}
	return false
}

// ending reports an English ending after a keyword, allowing for a doubled
// last consonant (stop, stopped) and for a keyword's final e (rake, raked).
func ending(kw, rest string) bool {
	if isEnding(rest) {
		return true
	}
	if n := len(kw); n > 0 && len(rest) > 1 && rest[0] == kw[n-1] && !strings.ContainsRune("aeiou", rune(rest[0])) && isEnding(rest[1:]) {
		return true
	}
	switch rest {
	case "d", "r", "rs", "st", "n", "ns":
		return strings.HasSuffix(kw, "e") // rake raked, love lovers, give given
	}
	return false
}
