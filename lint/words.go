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
	// top is the set of the first words, for telling the book's language.
	top map[string]bool
	// spaced says the language writes spaces between words.
	spaced bool
}

var languages = []struct{ lang, name string }{
	{"en", "English"}, {"de", "German"}, {"es", "Spanish"}, {"fr", "French"}, {"it", "Italian"},
	{"pt", "Portuguese"}, {"ru", "Russian"}, {"pl", "Polish"}, {"zh", "Chinese"}, {"ja", "Japanese"},
}

var loadWords = sync.OnceValue(func() []*commonWords {
	var out []*commonWords
	for _, l := range languages {
		data, err := wordFiles.ReadFile("words/" + l.lang + ".txt")
		if err != nil {
			panic("lint: embedded word list missing: " + err.Error())
		}
		cw := &commonWords{lang: l.lang, name: l.name, top: map[string]bool{}, spaced: l.lang != "zh" && l.lang != "ja"}
		for _, w := range strings.Split(string(data), "\n") {
			if w == "" || strings.HasPrefix(w, "#") {
				continue
			}
			cw.words = append(cw.words, w)
			if len(cw.top) < 300 {
				cw.top[w] = true
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

// topOf maps each of the first words of the spaced languages' lists to the
// languages (bits, in the order of languages) it is among the first of, so
// that telling the book's language is one lookup per distinct word.
var topOf = sync.OnceValue(func() map[string]uint16 {
	m := map[string]uint16{}
	for i, cw := range loadWords() {
		if cw.spaced {
			for w := range cw.top {
				m[w] |= 1 << i
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
	list             []string
	count            []int
	han, kana, latin int
}

// contentWords reads every enabled entry's content once: its words, lowered,
// and its letters by script. ASCII, nearly all of most books, is told from a
// table of the engine's word characters; a word already in lower case is
// counted without a copy, and words are counted in a wordTable.
func (c *Context) contentWords() *words {
	if c.shared.words != nil {
		return c.shared.words
	}
	// ascii holds, per ASCII character, whether it is part of a word
	// (wordChar), a letter and an upper-case one.
	const (
		wordChar = 1 << iota
		letter
		upperCase
	)
	var ascii [utf8.RuneSelf]uint8
	for r := range rune(utf8.RuneSelf) {
		if !c.notWordRune(r) {
			ascii[r] |= wordChar
		}
		switch {
		case 'A' <= r && r <= 'Z':
			ascii[r] |= letter | upperCase
		case 'a' <= r && r <= 'z':
			ascii[r] |= letter
		}
	}
	ws := &words{}
	table := newWordTable()
	var low []byte
	add := func(w string, upper bool) {
		switch {
		case !upper:
			table.add(w)
		case match.IsASCII(w):
			low = append(low[:0], w...)
			for i, b := range low {
				if 'A' <= b && b <= 'Z' {
					low[i] = b + ('a' - 'A')
				}
			}
			table.addBytes(low)
		default:
			table.add(strings.ToLower(w))
		}
	}
	for _, e := range c.Book.Entries {
		if !e.Enabled {
			continue
		}
		s := e.Content
		start, upper := -1, false
		for i := 0; i < len(s); {
			at := i
			var inWord bool
			if b := s[i]; b < utf8.RuneSelf {
				f := ascii[b]
				if f&letter != 0 {
					ws.latin++
				}
				inWord = f&wordChar != 0
				upper = upper || f&upperCase != 0
				i++
			} else {
				r, size := utf8.DecodeRuneInString(s[i:])
				inWord = !c.notWordRune(r)
				upper = upper || unicode.ToLower(r) != r
				switch {
				case unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
					ws.kana++
				case unicode.Is(unicode.Han, r):
					ws.han++
				}
				i += size
			}
			switch {
			case inWord && start < 0:
				start = at
			case !inWord:
				// upper only says whether the word needs lowering: a
				// word without upper case lowers to itself.
				if start >= 0 {
					add(s[start:at], upper)
					start = -1
				}
				upper = false
			}
		}
		if start >= 0 {
			add(s[start:], upper)
		}
	}
	ws.list, ws.count = table.list, table.count
	c.shared.words = ws
	return ws
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

// endings are English inflectional and derivational endings.
var endings = map[string]bool{}

func init() {
	for _, x := range strings.Fields(`s es 's ’s ed ing ings er ers or ors est ment ments ness ful less ly able
		ible ish ist ists ism ic ics ical al ally ual ian ians ion ions ation ations ity ive ous y ies ie
		en hood ship dom ward wards like`) {
		endings[x] = true
	}
}

// ending reports an English ending after a keyword, allowing for a doubled
// last consonant (stop, stopped) and for a keyword's final e (rake, raked).
func ending(kw, rest string) bool {
	if endings[rest] {
		return true
	}
	if n := len(kw); n > 0 && len(rest) > 1 && rest[0] == kw[n-1] && !strings.ContainsRune("aeiou", rune(rest[0])) && endings[rest[1:]] {
		return true
	}
	switch rest {
	case "d", "r", "rs", "st", "n", "ns":
		return strings.HasSuffix(kw, "e") // rake raked, love lovers, give given
	}
	return false
}
