package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lorekit/lore/schema"
)

func itoa(n int) string { return strconv.Itoa(n) }

// quoteList prints up to max items quoted, "and N more" after that.
func quoteList(items []string, max int) string {
	return quoteFirst(items[:min(len(items), max)], len(items))
}

// quoteFirst is quoteList of a list of total items given its first ones.
func quoteFirst(first []string, total int) string {
	var b strings.Builder
	for i, s := range first {
		if i > 0 {
			if i == total-1 {
				b.WriteString(" and ")
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(strconv.Quote(s))
	}
	if total > len(first) {
		fmt.Fprintf(&b, " and %d more", total-len(first))
	}
	return b.String()
}

// describe prints a condition or variable value the way it is written in YAML.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprint(v)
}

// number reads a condition value as a number: numbers, and strings that parse as
// one (SPEC §1: "a numeric string compares as a number").
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// lineOf prints a position as file:line:col, the form messages use to point
// at another place (with the column, which is what tells places apart in a
// minified JSON file, all on one line).
func lineOf(p schema.Pos) string { return p.String() }

// quote is a string as Go quotes it: messages quote ids and keywords this way.
func quote(s string) string { return strconv.Quote(s) }

// nWords is "1 word" or "n words".
func nWords(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return itoa(n) + " " + word + "s"
}
