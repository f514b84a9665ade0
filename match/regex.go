package match

import (
	"fmt"
	"regexp"
	"strings"
)

// IsRegex reports a keyword written /pattern/flags: it starts with a slash and has
// a second slash after a non-empty pattern, followed only by ASCII letters (the
// flags). Such a keyword is always treated as a regular expression, so a literal
// like "/usr/bin" is a regular expression with the unknown flags "bin" and
// CompileRegex reports it (lint's invalid-regex), rather than silently being
// matched as text the creator may not have meant.
func IsRegex(kw string) bool {
	if len(kw) < 3 || kw[0] != '/' {
		return false
	}
	i := strings.LastIndexByte(kw, '/')
	if i < 2 {
		return false
	}
	for j := i + 1; j < len(kw); j++ {
		c := kw[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// CompileRegex compiles a /pattern/flags keyword as RE2 with the flags i
// (case-insensitive), m (multi-line ^ $) and s (. matches newline). Any other
// flag is an error: SillyTavern's g, u and y have no meaning for a yes/no match
// and are rejected so that the creator notices the keyword is not JavaScript.
func CompileRegex(kw string) (*regexp.Regexp, error) {
	if !IsRegex(kw) {
		return nil, fmt.Errorf("%q is not a /pattern/flags keyword", kw)
	}
	i := strings.LastIndexByte(kw, '/')
	pattern, flags := kw[1:i], kw[i+1:]
	var set [3]bool
	for _, f := range flags {
		switch f {
		case 'i':
			set[0] = true
		case 'm':
			set[1] = true
		case 's':
			set[2] = true
		default:
			return nil, fmt.Errorf("unknown regular-expression flag %q in %s (RE2 flags are i, m and s)", f, kw)
		}
	}
	var prefix strings.Builder
	for j, name := range "ims" {
		if set[j] {
			prefix.WriteRune(name)
		}
	}
	if prefix.Len() > 0 {
		pattern = "(?" + prefix.String() + ")" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %s: %w", kw, err)
	}
	return re, nil
}
