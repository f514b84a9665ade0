package diag

import "strings"

// EditDistance is the Levenshtein distance between a and b in runes. It serves
// the "did you mean" hints of every command (unknown fields, ids, rule names).
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Suggest returns the word of allowed closest to got when it is close enough
// to be a slip: the same letters ignoring case, '_', '-' and spaces
// ("SillyTavern" for sillytavern, "card_v3" for card-v3), a plural or
// singular, at most two edits (one for words of four letters or fewer), or
// the start of only one of them ("o200k" for o200k_base); "" otherwise. Unknown fields, flags, flag values and rule ids all ask it.
func Suggest(got string, allowed []string) string {
	norm := func(s string) string {
		return strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(s))
	}
	g := norm(got)
	best, bestD, tied := "", 3, false
	for _, a := range allowed {
		n := norm(a)
		if n == g || n == g+"s" || n+"s" == g {
			return a
		}
		limit := 2
		if len(a) <= 4 {
			limit = 1
		}
		switch d := EditDistance(g, n); {
		case d > limit || d > bestD:
		case d < bestD:
			best, bestD, tied = a, d, false
		default:
			tied = true // as near to two: no guess, unless a nearer one comes
		}
	}
	if tied {
		return ""
	}
	if best == "" && len(g) >= 3 {
		for _, a := range allowed {
			if strings.HasPrefix(norm(a), g) {
				if best != "" {
					return "" // the start of several: no guess
				}
				best = a
			}
		}
	}
	return best
}
