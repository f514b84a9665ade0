package render

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
)

// memory ranks memory items by relevance to the last action and takes them
// greedily within budget. The [Memory] header is paid first and left out with
// the last item.
func (b *budgeter) memory(budget int) int {
	var items, headers []int
	for _, i := range b.bySection[budgetMemory] {
		if b.pieces[i].Section == "" {
			headers = append(headers, i)
		} else {
			items = append(items, i)
		}
	}
	used := 0
	for _, i := range headers {
		used += b.st[i].tokens
	}
	var last strings.Builder
	for _, i := range b.bySection[budgetLastAction] {
		last.WriteString(b.pieces[i].Content)
		last.WriteByte('\n')
	}
	lastWords := wordSet(last.String())
	score := make(map[int]int, len(items))
	for _, i := range items {
		score[i] = overlap(wordSet(b.pieces[i].Content), lastWords)
	}
	slices.SortStableFunc(items, func(x, y int) int { return cmp.Compare(score[y], score[x]) })
	kept := 0
	for _, i := range items {
		if t := b.st[i].tokens; used+t <= budget {
			b.keep(i)
			used += t
			kept++
		} else {
			b.drop(i, "did not fit in the "+tokensLeft(budget-used)+" for the memory bank")
		}
	}
	if kept == 0 {
		for _, i := range headers {
			b.drop(i, "no memory item fitted")
		}
		return 0
	}
	for _, i := range headers {
		b.keep(i)
	}
	return used
}

// wordSet is the set of normalised words of s, for memory relevance: runs of
// letters and digits, lower-cased, without the commonest English function
// words and one-letter words. Scripts written without spaces (Han, kana,
// Hangul, Thai) have no words to split on, so their runs contribute character
// bigrams instead: 鴨川 in a memory item matches 鴨川 in the last action.
func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	var word []rune
	flush := func() {
		defer func() { word = word[:0] }()
		if len(word) == 0 {
			return
		}
		if isUnspaced(word[0]) {
			if len(word) == 1 {
				set[string(word)] = true
			}
			for i := 0; i+1 < len(word); i++ {
				set[string(word[i:i+2])] = true
			}
			return
		}
		w := string(word)
		if len(word) > 1 && !stopWords[w] {
			set[w] = true
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			r = unicode.ToLower(r)
			if len(word) > 0 && isUnspaced(word[0]) != isUnspaced(r) {
				flush()
			}
			word = append(word, r)
		default:
			flush()
		}
	}
	flush()
	return set
}

func isUnspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

func overlap(a, b map[string]bool) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}

// stopWords are words too common to say two texts are about the same thing.
var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "are": true, "but": true, "not": true, "you": true,
	"all": true, "any": true, "can": true, "her": true, "was": true, "one": true, "our": true,
	"out": true, "his": true, "has": true, "had": true, "him": true, "she": true, "they": true,
	"them": true, "this": true, "that": true, "with": true, "from": true, "have": true,
	"what": true, "when": true, "who": true, "how": true, "its": true, "into": true, "your": true,
	"there": true, "their": true, "then": true, "than": true, "were": true, "will": true,
	"would": true, "about": true, "been": true, "some": true, "does": true, "did": true,
	"of": true, "to": true, "in": true, "is": true, "it": true, "on": true, "at": true,
	"by": true, "or": true, "an": true, "as": true, "be": true, "he": true, "we": true,
	"my": true, "me": true, "do": true, "so": true, "if": true, "no": true, "up": true,
}
