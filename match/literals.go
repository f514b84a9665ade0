package match

import "github.com/coregx/ahocorasick"

// Literals finds many byte strings at once, compared exactly: one
// Aho-Corasick automaton run once per text, for an engine that folds case
// itself (the sillytavern engine lower-cases keys and texts as JavaScript
// does, and judges whole words by SillyTavern's ASCII rule). Patterns are
// the caller's, already in the form they compare in; empty ones never match.
type Literals struct {
	ac *ahocorasick.Automaton
	id []int // automaton pattern → caller's pattern index
}

// NewLiterals builds the automaton over the non-empty patterns.
func NewLiterals(patterns []string) *Literals {
	l := &Literals{}
	var bs [][]byte
	for i, p := range patterns {
		if p != "" {
			bs = append(bs, []byte(p))
			l.id = append(l.id, i)
		}
	}
	if len(bs) > 0 {
		ac, err := ahocorasick.NewBuilder().AddPatterns(bs).Build()
		if err != nil {
			panic("match: building the automaton: " + err.Error()) // only empty patterns fail
		}
		l.ac = ac
	}
	return l
}

// Each calls fn for every occurrence of every pattern in text, overlapping
// ones included, with the pattern's index and the occurrence's byte range.
func (l *Literals) Each(text []byte, fn func(pattern, start, end int)) {
	if l.ac == nil {
		return
	}
	for _, m := range l.ac.FindAllOverlapping(text) {
		fn(l.id[m.PatternID], m.Start, m.End)
	}
}
