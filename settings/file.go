package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
	"github.com/lorekit/lore/tokenize"
)

// FileName is the configuration file looked for upward from a lorebook.
const FileName = ".lore.yaml"

// FileRule is the rule id of problems in .lore.yaml itself.
const FileRule = "config"

// File is a loaded .lore.yaml: lint's rule levels and ignored paths, and
// defaults for the settings a manifest leaves unset. The zero File changes
// nothing.
type File struct {
	// Path is the file it came from; ignore globs are relative to its folder.
	Path string
	// Rules maps a rule id to its level; 0 means off.
	Rules map[string]diag.Severity
	// Ignore lists glob paths (`**` crosses folders) whose findings lint drops.
	Ignore []string
	// Defaults for settings the manifest leaves unset; 0 and "" are unset.
	Tokenizer       string
	ContextTokens   int
	ResponseReserve int
	// Fields are the positions of the settings' values the file sets
	// (tokenizer, contextTokens, responseReserve), by key.
	Fields map[string]diag.Pos
}

// has says whether the file sets key (responseReserve may be set to 0).
func (f *File) has(key string) bool {
	if f == nil {
		return false
	}
	_, ok := f.Fields[key]
	return ok
}

// Find looks for .lore.yaml in the folder of path (or path itself when it is
// a folder) and each parent, the way git finds its repository, and returns ""
// when there is none. (viper's search looks in a fixed list of folders, for
// every extension it knows, and would find a .lore.json first.)
func Find(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	dir := abs
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		dir = filepath.Dir(abs)
	}
	for {
		c := filepath.Join(dir, FileName)
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

// RuleCheck says whether id is a lint rule's id and, when it is not, a hint
// such as ` (did you mean "recursion-loop"?)` ("" for none).
type RuleCheck func(id string) (known bool, hint string)

// LoadFile reads a .lore.yaml. Problems in it (unknown keys, bad levels, and
// rule ids knownRule does not know, when it is given) come back as
// diagnostics at their line; err is for a file that cannot be read or is not
// YAML at all.
func LoadFile(path string, knownRule RuleCheck) (*File, []diag.Diagnostic, error) {
	data, err := schema.ReadBytes(path)
	if err != nil {
		return nil, nil, err
	}
	return ParseFile(path, data, knownRule)
}

var fileKeys = map[string]bool{"rules": true, "ignore": true, "tokenizer": true, "contextTokens": true, "responseReserve": true}

// ParseFile is LoadFile for a file already read. The values are read from
// yaml.v3's nodes, where each keeps its line, which the messages and the
// settings' sources name.
func ParseFile(path string, data []byte, knownRule RuleCheck) (*File, []diag.Diagnostic, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var ds []diag.Diagnostic
	pos := func(n *yaml.Node) diag.Pos { return diag.Pos{File: path, Line: n.Line, Col: n.Column} }
	bad := func(n *yaml.Node, format string, args ...any) {
		ds = append(ds, diag.New(pos(n), diag.Error, FileRule, format, args...))
	}
	f := &File{Path: path, Rules: map[string]diag.Severity{}, Fields: map[string]diag.Pos{}}
	if len(doc.Content) == 0 {
		return f, nil, nil // an empty file configures nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		bad(root, "%s must be a mapping with keys rules, ignore, tokenizer, contextTokens, responseReserve", FileName)
		return f, ds, nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if !fileKeys[k.Value] {
			bad(k, "unknown key %q in %s (valid: rules, ignore, tokenizer, contextTokens, responseReserve)", k.Value, FileName)
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
				if knownRule != nil {
					if known, hint := knownRule(rk.Value); !known {
						bad(rk, "unknown rule %q%s; `lore rules` lists the rule ids", rk.Value, hint)
					}
				}
				sev, err := diag.ParseSeverity(rv.Value)
				if err != nil || rv.Kind != yaml.ScalarNode {
					bad(rv, "rule %q: level must be off, info, warning or error, not %q", rk.Value, rv.Value)
					continue
				}
				f.Rules[rk.Value] = sev
			}
		case "ignore":
			if v.Kind != yaml.SequenceNode {
				bad(v, "ignore must be a list of glob paths")
				continue
			}
			for _, g := range v.Content {
				if g.Kind != yaml.ScalarNode || g.Value == "" {
					bad(g, "ignore entries must be non-empty glob paths")
					continue
				}
				f.Ignore = append(f.Ignore, g.Value)
			}
		case "tokenizer":
			if _, err := tokenize.Get(v.Value); err != nil || v.Kind != yaml.ScalarNode {
				bad(v, "tokenizer must be one of %s", strings.Join(tokenize.Names(), ", "))
				continue
			}
			f.Tokenizer, f.Fields[k.Value] = v.Value, pos(v)
		case "contextTokens", "responseReserve":
			var n int
			if v.Kind != yaml.ScalarNode || v.Decode(&n) != nil || n < 0 || (k.Value == "contextTokens" && n == 0) {
				bad(v, "%s must be a positive whole number", k.Value)
				continue
			}
			if k.Value == "contextTokens" {
				f.ContextTokens = n
			} else {
				f.ResponseReserve = n
			}
			f.Fields[k.Value] = pos(v)
		}
	}
	if len(ds) > 0 {
		return f, ds, nil
	}
	// A key given twice would silently lose a value: yaml.v3's decoding
	// refuses it, naming both lines.
	var values map[string]any
	if err := root.Decode(&values); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil, nil
}
