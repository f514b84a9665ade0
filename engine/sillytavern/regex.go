package sillytavern

import (
	"strings"

	"github.com/lorekit/lore/match"
)

// stRegex is a key SillyTavern reads as a regular expression: /pattern/flags
// with flags among g i m s u y, no unescaped slash inside, and a pattern
// JavaScript compiles (parseRegexFromString). Any other key, an invalid
// regular expression included, is matched as text. It runs as a
// JavaScript regular expression on the text as it is (match's ECMAScript
// dialect).
type stRegex struct {
	m *match.Matcher
}

// parseRegex returns the key as a regular expression, or nil for text.
func parseRegex(key string) *stRegex {
	if len(key) < 3 || key[0] != '/' {
		return nil
	}
	slash := strings.LastIndexByte(key, '/')
	if slash < 2 {
		return nil
	}
	pattern := key[1:slash]
	for _, f := range key[slash+1:] {
		if !strings.ContainsRune("gimsuy", f) {
			return nil
		}
	}
	// An unescaped delimiter inside makes it not a regular expression.
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '/' && (i == 0 || pattern[i-1] != '\\') {
			return nil
		}
	}
	m, errs := match.CompileWith([]match.Pattern{{Text: key}}, match.Options{Fold: match.FoldNone, Regex: match.ECMAScript, Blank: true})
	if len(errs) > 0 || m.PatternGroup(0) < 0 || !m.IsRegexGroup(m.PatternGroup(0)) {
		return nil // new RegExp throws: SillyTavern looks for it as text
	}
	return &stRegex{m: m}
}

// test is RegExp.prototype.test on a fresh expression (lastIndex 0), timed
// by the generation's clock (nil: the limit of one match alone).
func (x *stRegex) test(text string, c *match.RegexClock) bool {
	hit := false
	x.m.OccurrencesWithin(text, c, func(match.Occurrence) { hit = true })
	return hit
}
