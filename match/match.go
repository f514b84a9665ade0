// Package match finds keywords in text: one Aho-Corasick automaton over every
// normalised literal keyword of a lorebook, run once per text, with whole-word and
// regular-expression keywords checked on its hits. It owns normalisation (NFKC,
// case folding) so that render and lint agree on what "the same keyword" means.
// It knows nothing of entries' sections, conditions or budgets.
package match
