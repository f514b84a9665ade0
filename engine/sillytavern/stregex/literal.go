package stregex

import (
	"strings"
	"unicode/utf8"
)

// ParseLiteral reads a script's findRegex the way SillyTavern's
// regexFromString does: the first match of /(\/?)(.+)\1([a-z]*)/i in it.
// Written "/pattern/flags", the pattern runs to the last slash of its line
// and the flags are the letters after it (anything after those is
// ignored); without a leading slash the whole first line is the pattern.
// Flags that are not distinct letters among g m i x X s u U A J make the
// whole text the pattern, with no flags. ok is false when the text has no
// character outside line breaks (SillyTavern's match fails and the script
// does nothing). Whether the flags are ones JavaScript accepts is Compile's
// question.
func ParseLiteral(s string) (pattern, flags string, ok bool) {
	for start := 0; start < len(s); {
		r, n := utf8.DecodeRuneInString(s[start:])
		if isLineTerminator(r) {
			start += n
			continue
		}
		end := lineEnd(s, start) // (.+) reaches at most here
		if s[start] == '/' {
			// (\/?) takes the slash; (.+) then backs off to the last slash
			// that leaves it at least one character.
			if last := strings.LastIndexByte(s[start:end], '/'); last > 1 {
				pattern = s[start+1 : start+last]
				flags = letters(s[start+last+1:])
				return checkFlags(s, pattern, flags)
			}
		}
		// (\/?) empty: (.+) is the rest of the line, and ([a-z]*) matches
		// nothing after it (a line break or the end follows).
		return checkFlags(s, s[start:end], "")
	}
	return "", "", false
}

// checkFlags applies regexFromString's test of the flags.
func checkFlags(s, pattern, flags string) (string, string, bool) {
	if flags == "" {
		return pattern, "", true
	}
	for i, f := range flags {
		if !strings.ContainsRune("gmixXsuUAJ", f) || strings.ContainsRune(flags[:i], f) {
			return s, "", true // RegExp(input): the whole text, no flags
		}
	}
	return pattern, flags, true
}

// letters is the leading run of ASCII letters of s (([a-z]*) with /i).
func letters(s string) string {
	i := 0
	for i < len(s) && ('a' <= s[i] && s[i] <= 'z' || 'A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	return s[:i]
}

// lineEnd is where the line that starts at i ends.
func lineEnd(s string, i int) int {
	for j := i; j < len(s); {
		r, n := utf8.DecodeRuneInString(s[j:])
		if isLineTerminator(r) {
			return j
		}
		j += n
	}
	return len(s)
}

// isLineTerminator is what JavaScript's "." does not match.
func isLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
}
