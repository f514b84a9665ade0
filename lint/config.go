package lint

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/settings"
)

// Config is what lint takes from a .lore.yaml (rule levels, ignored paths)
// and, for the lorebook being linted, its resolved settings. The zero Config
// changes nothing.
type Config struct {
	// Path is the file it came from ("" when none); ignore globs are relative
	// to its folder.
	Path string
	// Rules maps a rule id to its level; 0 means off.
	Rules map[string]diag.Severity
	// Ignore lists glob paths (`**` crosses folders) whose findings are dropped.
	Ignore []string
	// File is the .lore.yaml (nil when none): its defaults fill the settings
	// a manifest leaves unset when no command resolved them (WithSettings).
	File *settings.File

	ignoreRes []*regexp.Regexp
	// resolved are the book's settings as the command resolved them (flags,
	// manifest, .lore.yaml, defaults); nil: settings.Of the book and File.
	resolved *settings.Resolved
	// judge is the engine the lint judges by, base lore's own (WithEngines).
	judge, base render.Engine
}

// NewConfig is the Config of a loaded .lore.yaml (nil: none).
func NewConfig(f *settings.File) *Config {
	if f == nil {
		return &Config{}
	}
	c := &Config{Path: f.Path, Rules: f.Rules, Ignore: f.Ignore, File: f}
	for _, g := range c.Ignore {
		c.ignoreRes = append(c.ignoreRes, globRegexp(g))
	}
	return c
}

// KnownRule says whether id is a rule's id, with a "did you mean" hint when it
// is not, for reading .lore.yaml (settings.LoadFile).
func KnownRule(id string) (bool, string) {
	if byID(id) != nil {
		return true, ""
	}
	return false, ruleHint(id)
}

// WithSettings returns a copy of c that lints with the settings a command
// resolved for the book (settings.Resolver): its flags over the manifest over
// .lore.yaml over lore's defaults.
func (c *Config) WithSettings(r *settings.Resolved) *Config {
	cp := *c
	cp.resolved = r
	return &cp
}

// settings are the book's settings and where each came from.
func (c *Config) settings(book *schema.Lorebook) *settings.Resolved {
	if c.resolved != nil {
		return c.resolved
	}
	return settings.Of(book, c.File)
}

func has(m map[string]schema.Pos, k string) bool { _, ok := m[k]; return ok }

// apply sets the configured level of d's rule and drops d when the rule is off or
// its file is ignored.
func (c *Config) apply(d diag.Diagnostic) (diag.Diagnostic, bool) {
	if sev, ok := c.Rules[d.Rule]; ok {
		if sev == 0 {
			return d, false
		}
		d.Severity = sev
	}
	if len(c.ignoreRes) > 0 && c.ignored(d.File) {
		return d, false
	}
	return d, true
}

func (c *Config) ignored(file string) bool {
	rel := file
	if c.Path != "" {
		if a, err := filepath.Abs(file); err == nil {
			if r, err := filepath.Rel(filepath.Dir(mustAbs(c.Path)), a); err == nil {
				rel = r
			}
		}
	}
	rel = filepath.ToSlash(rel)
	for _, re := range c.ignoreRes {
		if re.MatchString(rel) {
			return true
		}
	}
	return false
}

func mustAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// globRegexp turns a gitignore-like glob into a regexp: `**` crosses folders, `*`
// and `?` stay inside one, and a pattern naming a folder covers everything in it.
func globRegexp(g string) *regexp.Regexp {
	g = strings.TrimPrefix(filepath.ToSlash(g), "./")
	g = strings.TrimSuffix(g, "/")
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch ch := g[i]; {
		case ch == '*' && i+1 < len(g) && g[i+1] == '*':
			i++
			if i+1 < len(g) && g[i+1] == '/' {
				i++
				b.WriteString("(?:.*/)?")
			} else {
				b.WriteString(".*")
			}
		case ch == '*':
			b.WriteString("[^/]*")
		case ch == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	b.WriteString("(?:/.*)?$")
	return regexp.MustCompile(b.String())
}
