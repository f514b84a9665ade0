package sillytavern

import (
	"strings"

	"github.com/dlclark/regexp2/v2"
)

// stRegex is a key SillyTavern reads as a regular expression: /pattern/flags
// with flags among g i m s u y, no unescaped slash inside, and a pattern
// JavaScript compiles. Any other key, an invalid regular expression
// included, is matched as text.
type stRegex struct {
	re     *regexp2.Regexp
	sticky bool
}

// parseRegex is SillyTavern's parseRegexFromString, on regexp2's ECMAScript
// mode (nil when the key is text).
func parseRegex(key string) *stRegex {
	if len(key) < 3 || key[0] != '/' {
		return nil
	}
	slash := strings.LastIndexByte(key, '/')
	if slash < 2 {
		return nil
	}
	pattern, flags := key[1:slash], key[slash+1:]
	for i, f := range flags {
		if !strings.ContainsRune("gimsuy", f) || strings.ContainsRune(flags[:i], f) {
			return nil // new RegExp throws on an unknown or repeated flag
		}
	}
	// An unescaped delimiter inside makes it not a regular expression.
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '/' && (i == 0 || pattern[i-1] != '\\') {
			return nil
		}
	}
	pattern = strings.Replace(pattern, `\/`, "/", 1)
	opts := regexp2.ECMAScript
	x := &stRegex{}
	for _, f := range flags {
		switch f {
		case 'i':
			opts |= regexp2.IgnoreCase
		case 'm':
			opts |= regexp2.Multiline
		case 's':
			opts |= regexp2.Singleline
		case 'u':
			opts |= regexp2.Unicode
		case 'y':
			x.sticky = true
		}
	}
	re, err := regexp2.Compile(pattern, opts)
	if err != nil {
		return nil
	}
	x.re = re
	return x
}

// test is RegExp.prototype.test on a fresh expression (lastIndex 0).
func (x *stRegex) test(text string) bool {
	m, err := x.re.FindStringMatch(text)
	if err != nil || m == nil {
		return false
	}
	return !x.sticky || m.RuneIndex == 0
}
