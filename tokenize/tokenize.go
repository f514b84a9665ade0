// Package tokenize counts tokens with the tokenizers lore embeds (o200k_base,
// cl100k_base, and a chars/4 estimate). It owns nothing about budgets: it only
// counts and cuts text, caching each distinct text once.
package tokenize

// Counter counts the tokens of a text and can cut a text to a token count.
type Counter interface {
	// Name is the tokenizer id: "o200k_base", "cl100k_base" or "chars4".
	Name() string
	// Count returns the number of tokens in s.
	Count(s string) int
	// Truncate returns the longest prefix of s that is at most n tokens, cut on a
	// token boundary (and never inside a UTF-8 sequence).
	Truncate(s string, n int) string
}
