package match

import (
	"fmt"
	"strings"

	"github.com/dlclark/regexp2/v2"
)

// jsFlags are the flags a /pattern/flags keyword may carry in the ECMAScript
// dialect (those of JavaScript's RegExp that engines accept in keywords).
const jsFlags = "gimsuy"

// IsJSRegex reports a keyword written /pattern/flags as JavaScript engines
// recognise it (the test /^\/(.+)\/([gimsuy]*)$/): a slash, a non-empty
// pattern without line breaks, a slash, and only the flags g i m s u y. Any
// other keyword is a literal, "/usr/bin" included.
func IsJSRegex(kw string) bool {
	_, _, ok := splitJSRegex(kw)
	return ok
}

func splitJSRegex(kw string) (pattern, flags string, ok bool) {
	i := strings.LastIndexByte(kw, '/')
	if len(kw) < 3 || kw[0] != '/' || i < 2 {
		return "", "", false
	}
	pattern, flags = kw[1:i], kw[i+1:]
	for _, f := range flags {
		if !strings.ContainsRune(jsFlags, f) {
			return "", "", false
		}
	}
	if strings.ContainsAny(pattern, "\n\r\u2028\u2029") {
		return "", "", false
	}
	return pattern, flags, true
}

// jsRegex is a compiled ECMAScript keyword. Sticky (the y flag) matches only
// where the search starts, which for a keyword test is the text's start.
type jsRegex struct {
	re             *regexp2.Regexp
	pattern, flags string
	sticky         bool
}

// compileJSRegex compiles a /pattern/flags keyword with JavaScript's
// semantics as far as regexp2's ECMAScript mode has them. A repeated or
// unknown flag is an error, as `new RegExp` throws on it.
func compileJSRegex(kw string) (*jsRegex, error) {
	pattern, flags, ok := splitJSRegex(kw)
	if !ok {
		return nil, fmt.Errorf("%q is not a /pattern/flags keyword", kw)
	}
	opts := regexp2.ECMAScript
	x := &jsRegex{pattern: pattern, flags: flags}
	for i, f := range flags {
		if strings.ContainsRune(flags[:i], f) {
			return nil, fmt.Errorf("invalid regular expression %s: flag %q given twice", kw, f)
		}
		if o, ok := JSFlagOption(f); ok {
			opts |= o
		} else if f == 'y' {
			x.sticky = true
		}
	}
	re, err := regexp2.Compile(pattern, opts)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %s: %w", kw, err)
	}
	re.MatchTimeout = RegexMatchTime
	x.re = re
	return x, nil
}

// keyword is the expression as written, /pattern/flags.
func (x *jsRegex) keyword() string { return "/" + x.pattern + "/" + x.flags }

// each calls fn with the byte range of the first match in text, an empty
// match included (RegExp.test's answer: engines ask whether and where an
// expression first matches, and one match is one bounded run). It returns
// regexp2's error when the match ran past RegexMatchTime or its
// backtracking-stack limit; fn is then not called.
func (x *jsRegex) each(text string, fn func(s, e int)) error {
	locs, err := x.re.FindAllStringIndex(text, 1)
	if err != nil {
		return err
	}
	for _, loc := range locs {
		if x.sticky && loc[0] != 0 {
			return nil
		}
		fn(loc[0], loc[1])
	}
	return nil
}

// JSFlagOption is the regexp2 option of JavaScript's regular-expression
// flag f (i, m, s, u); false for the flags with no option (g, y) and the
// others.
func JSFlagOption(f rune) (regexp2.RegexOptions, bool) {
	switch f {
	case 'i':
		return regexp2.IgnoreCase, true
	case 'm':
		return regexp2.Multiline, true
	case 's':
		return regexp2.Singleline, true
	case 'u':
		return regexp2.Unicode, true
	}
	return 0, false
}
