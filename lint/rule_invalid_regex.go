package lint

import (
	"regexp"
	"strings"

	"github.com/lorekit/lore/match"
	"github.com/lorekit/lore/schema"
)

// checkInvalidRegex compiles every /regex/ keyword (as match does) and every
// transform pattern. A keyword that does not compile never matches; a transform
// that does not compile stops the render.
func checkInvalidRegex(c *Context) {
	for _, e := range c.Book.Entries {
		for _, kws := range [][]schema.Keyword{e.Keywords, e.SecondaryKeywords} {
			for _, k := range kws {
				if !match.IsRegex(k.Text) {
					continue
				}
				if _, err := match.CompileRegex(k.Text); err != nil {
					c.Report(e, k.Pos, "%v; %s; until then this keyword never matches", err, regexHint(k.Text))
				}
			}
		}
	}
	for _, t := range c.Book.Manifest.Transforms {
		if _, err := regexp.Compile(t.Pattern); err != nil {
			p := t.Pos
			if q, ok := t.Fields["pattern"]; ok {
				p = q
			}
			c.Report(nil, p, "transform pattern %q does not compile: %v; %s; until then rendering stops at this transform", t.Pattern, stripRegexpPrefix(err), regexHint(t.Pattern))
		}
	}
}

// stripRegexpPrefix drops regexp's "error parsing regexp: " lead-in, which would
// repeat what the message already says.
func stripRegexpPrefix(err error) string {
	const p = "error parsing regexp: "
	s := err.Error()
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

// regexHint names the usual cause when a pattern was written for JavaScript or
// PCRE (SillyTavern's engines): RE2's own message for (?<=…) talks about named
// captures, which misleads.
func regexHint(p string) string {
	for _, la := range []string{"(?<=", "(?<!", "(?=", "(?!"} {
		if strings.Contains(p, la) {
			return "look-around " + la + "…) is not supported by RE2: match the surrounding text instead"
		}
	}
	if backref.MatchString(p) {
		return "backreferences like \\1 are not supported by RE2: spell the repeated text out"
	}
	return "fix it in RE2 syntax (flags i, m and s)"
}

var backref = regexp.MustCompile(`\\[1-9]`)
