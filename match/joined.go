package match

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// mayJoin says whether kw holds a byte a separator or a comma can start
// with: most keywords hold none, and are no list without a closer look.
func mayJoin(kw string) bool {
	for i := 0; i < len(kw); i++ {
		switch kw[i] {
		case ',', ';', '|', 0xE3, 0xEF: // ，；｜ start with 0xEF, 、 with 0xE3
			return true
		}
	}
	return false
}

// listSeparators are the characters that join a list typed into one key
// field, strongest first: a key holding any of these but ASCII commas is a list
// whatever its parts.
var listSeparators = []string{"，", "、", "；", ";", "｜", "|"}

// SplitJoined splits a keyword that is really a list typed into one key field
// ("曹操，荀彧，曹仁") into its parts, trimmed, and returns the separator that
// joined them; a keyword that is not a list gives nil. A key with ASCII commas
// only counts as a list when it has three parts or more, or two parts of one
// or two words that do not start with a capital ("Ringwood, Hampshire" is a
// name, "sword, blade" a list); "1,000" is a number; | inside parentheses is
// alternation; regular expressions are never lists. Lint's joined-keywords,
// its --fix and the engine's --explain all use this one reading.
func SplitJoined(kw string) ([]string, string) {
	if !mayJoin(kw) {
		return nil, ""
	}
	return splitJoined(kw)
}

// splitJoined is SplitJoined without mayJoin's quick no.
func splitJoined(kw string) ([]string, string) {
	if IsRegex(kw) {
		return nil, ""
	}
	sep := ""
	for _, s := range listSeparators {
		if strings.Contains(kw, s) {
			sep = s
			break
		}
	}
	if (sep == "|" || sep == "｜") && strings.ContainsAny(kw, "()") {
		return nil, ""
	}
	ascii := sep == ""
	if ascii {
		if !strings.Contains(kw, ",") {
			return nil, ""
		}
		sep = ","
	}
	var out []string
	start := 0
	for i, r := range kw {
		switch r {
		case ',':
			if i > 0 && i+1 < len(kw) && isDigit(kw[i-1]) && isDigit(kw[i+1]) {
				continue // 1,000: a number, not a list
			}
		case '，', '、', '；', ';', '｜', '|':
		default:
			continue
		}
		if p := strings.TrimSpace(kw[start:i]); p != "" {
			out = append(out, p)
		}
		start = i + utf8.RuneLen(r)
	}
	if p := strings.TrimSpace(kw[start:]); p != "" {
		out = append(out, p)
	}
	if len(out) < 2 {
		return nil, ""
	}
	if ascii && len(out) < 3 {
		for _, p := range out {
			if r, _ := utf8.DecodeRuneInString(p); len(strings.Fields(p)) > 2 || unicode.IsUpper(r) {
				return nil, ""
			}
		}
	}
	return out, sep
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
