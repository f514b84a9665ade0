package lint

import (
	"regexp"

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
					c.Report(e, k.Pos, "%v; this keyword never matches until it is fixed (RE2 syntax: no look-around or backreferences)", err)
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
			c.Report(nil, p, "transform pattern %q does not compile: %v; fix it (RE2 syntax: no look-around or backreferences)", t.Pattern, stripRegexpPrefix(err))
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
