// Package match finds keywords in text: one Aho-Corasick automaton over every
// normalised literal keyword of a lorebook, run once per text, with whole-word
// checks applied to its hits; /regex/flags keywords (RE2) cannot live in the
// automaton and run once per text each, beside it. It owns normalisation (NFKC,
// then full case folding) so that render and lint agree on what "the same
// keyword" means, and it reports every hit at byte offsets of the original,
// unnormalised text.
//
// Engines that compare otherwise (JavaScript's toLowerCase or its regular
// expressions' i flag, ASCII word boundaries, JavaScript regular expressions)
// compile with CompileWith and Options instead of having automata of their
// own.
//
// It knows nothing of entries, sections, conditions, recursion or budgets: a
// Pattern's Owner is an opaque number the caller gives and gets back.
package match
