package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/render"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
	"github.com/spf13/viper"
)

// ConfigName is the file lint looks for, upward from the lorebook.
const ConfigName = ".lore.yaml"

// ConfigRule is the rule id of problems in .lore.yaml itself.
const ConfigRule = "config"

// Config is a loaded .lore.yaml. The zero Config changes nothing.
type Config struct {
	// Path is the file it came from ("" when none); ignore globs are relative
	// to its folder.
	Path string
	// Rules maps a rule id to its level; 0 means off.
	Rules map[string]diag.Severity
	// Ignore lists glob paths (`**` crosses folders) whose findings are dropped.
	Ignore []string
	// Defaults for settings the manifest leaves unset.
	Tokenizer       string
	ContextTokens   int
	ResponseReserve int

	ignoreRes   []*regexp.Regexp
	hasReserve  bool
	contextFlag int
	// judge is the engine the lint judges by, base lore's own (WithEngines).
	judge, base render.Engine
	// engineSettings are engines' settings laid over the manifest's
	// (--st-settings), by engine name.
	engineSettings map[string]map[string]any
}

// FindConfig looks for .lore.yaml in the folder of path (or path itself when it
// is a folder) and each parent, the way git finds .gitignore's repository root.
// It returns "" when there is none.
func FindConfig(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	dir := abs
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		dir = filepath.Dir(abs)
	}
	for {
		c := filepath.Join(dir, ConfigName)
		if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
			return c
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// LoadConfig reads a .lore.yaml. Problems in it (unknown keys, unknown rule ids,
// bad levels) come back as diagnostics with their line; err is for a file that
// cannot be read or is not YAML at all.
func LoadConfig(path string) (*Config, []diag.Diagnostic, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return parseConfig(path, data)
}

var configKeys = map[string]bool{"rules": true, "ignore": true, "tokenizer": true, "contextTokens": true, "responseReserve": true}

func parseConfig(path string, data []byte) (*Config, []diag.Diagnostic, error) {
	// viper drops positions (and folds key case), so the structure is checked on
	// yaml.v3 nodes first, where every key still has its line; viper then
	// holds the values.
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var ds []diag.Diagnostic
	bad := func(n *yaml.Node, format string, args ...any) {
		ds = append(ds, diag.New(diag.Pos{File: path, Line: n.Line, Col: n.Column}, diag.Error, ConfigRule, format, args...))
	}
	cfg := &Config{Path: path, Rules: map[string]diag.Severity{}}
	if len(doc.Content) == 0 {
		return cfg, nil, nil // an empty file configures nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		bad(root, "%s must be a mapping with keys rules, ignore, tokenizer, contextTokens, responseReserve", ConfigName)
		return cfg, ds, nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if !configKeys[k.Value] {
			bad(k, "unknown key %q in %s (valid: rules, ignore, tokenizer, contextTokens, responseReserve)", k.Value, ConfigName)
			continue
		}
		switch k.Value {
		case "rules":
			if v.Kind != yaml.MappingNode {
				bad(v, "rules must map rule ids to off, info, warning or error")
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				rk, rv := v.Content[j], v.Content[j+1]
				if byID(rk.Value) == nil {
					bad(rk, "unknown rule %q; `lore rules` lists the rule ids", rk.Value)
				}
				if _, err := diag.ParseSeverity(rv.Value); err != nil || rv.Kind != yaml.ScalarNode {
					bad(rv, "rule %q: level must be off, info, warning or error, not %q", rk.Value, rv.Value)
				}
			}
		case "ignore":
			if v.Kind != yaml.SequenceNode {
				bad(v, "ignore must be a list of glob paths")
				continue
			}
			for _, g := range v.Content {
				if g.Kind != yaml.ScalarNode || g.Value == "" {
					bad(g, "ignore entries must be non-empty glob paths")
				}
			}
		case "tokenizer":
			if _, err := tokenize.Get(v.Value); err != nil || v.Kind != yaml.ScalarNode {
				bad(v, "tokenizer must be one of %s", strings.Join(tokenize.Names(), ", "))
			}
		case "contextTokens", "responseReserve":
			var n int
			if v.Kind != yaml.ScalarNode || v.Decode(&n) != nil || n < 0 || (k.Value == "contextTokens" && n == 0) {
				bad(v, "%s must be a positive whole number", k.Value)
			}
		}
	}
	if len(ds) > 0 {
		return cfg, ds, nil
	}
	// The nodes were checked above, with their lines; viper holds the
	// values, decoded from those nodes (not a second parse of the text).
	var values map[string]any
	if err := root.Decode(&values); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	v := viper.New()
	if err := v.MergeConfigMap(values); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	for id, level := range v.GetStringMapString("rules") {
		sev, _ := diag.ParseSeverity(level)
		cfg.Rules[id] = sev
	}
	cfg.Ignore = v.GetStringSlice("ignore")
	cfg.Tokenizer = v.GetString("tokenizer")
	cfg.ContextTokens = v.GetInt("contextTokens")
	cfg.ResponseReserve, cfg.hasReserve = v.GetInt("responseReserve"), v.IsSet("responseReserve")
	for _, g := range cfg.Ignore {
		cfg.ignoreRes = append(cfg.ignoreRes, globRegexp(g))
	}
	return cfg, nil, nil
}

// Settings are the manifest's settings with the config's defaults filling the
// fields the manifest leaves unset: the lorebook's own word wins, since it
// travels with the lorebook to the engine. A --context given to the command
// (WithContext) wins over both, as in render.
func (c *Config) Settings(book *schema.Lorebook) schema.Settings {
	s, _ := c.settings(book)
	return s
}

// settings is Settings with where the context size came from.
func (c *Config) settings(book *schema.Lorebook) (schema.Settings, ContextSource) {
	s := book.Manifest.Settings
	if s.ContextTokens <= 0 {
		// A hand-built or foreign lorebook may carry no settings at all.
		fields := s.Fields
		s = schema.DefaultSettings()
		s.Fields = fields
	}
	from := ContextDefault
	if has(s.Fields, "contextTokens") {
		from = ContextManifest
	}
	if c.Tokenizer != "" && !has(s.Fields, "tokenizer") {
		s.Tokenizer = c.Tokenizer
	}
	if c.ContextTokens > 0 && !has(s.Fields, "contextTokens") {
		s.ContextTokens, from = c.ContextTokens, ContextConfig
	}
	if c.hasReserve && !has(s.Fields, "responseReserve") {
		s.ResponseReserve = c.ResponseReserve
	}
	if c.contextFlag > 0 {
		s.ContextTokens, from = c.contextFlag, ContextFlag
	}
	return s, from
}

// WithContext returns a copy of c whose context size (from a --context flag)
// overrides the manifest's and the file's.
func (c *Config) WithContext(tokens int) *Config {
	cp := *c
	cp.contextFlag = tokens
	return &cp
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
