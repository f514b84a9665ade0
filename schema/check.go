package schema

import (
	"bytes"
	"embed"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

//go:embed entry.schema.json lorebook.schema.json test.schema.json transcript.schema.json vars.schema.json
var schemaFS embed.FS

// SchemaNames are the embedded schemas, by the name `lore schema` takes.
var SchemaNames = []string{"entry", "lorebook", "test", "transcript", "vars"}

// SchemaJSON returns an embedded schema's text ("entry", "lorebook", "test",
// "transcript" or "vars").
func SchemaJSON(name string) ([]byte, error) {
	if !slices.Contains(SchemaNames, name) {
		return nil, fmt.Errorf("unknown schema %q (want %s)", name, strings.Join(SchemaNames, ", "))
	}
	return schemaFS.ReadFile(name + ".schema.json")
}

const schemaBase = "file:///lore/schema/"

var compiled struct {
	once    sync.Once
	schemas map[string]*jsonschema.Schema
	raw     map[string]any // schema file name → parsed document, to list allowed properties
	fast    map[string]*fastSchema
	err     error
}

// compiledSchema returns a schema compiled once per process. The "entries"
// schema is a list of entries (a bare-list lorebook or an entry file).
func compiledSchema(name string) *jsonschema.Schema {
	compiled.once.Do(func() {
		c := jsonschema.NewCompiler()
		compiled.raw = map[string]any{}
		for _, n := range SchemaNames {
			b, _ := schemaFS.ReadFile(n + ".schema.json")
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				compiled.err = err
				return
			}
			compiled.raw[n+".schema.json"] = doc
			if err := c.AddResource(schemaBase+n+".schema.json", doc); err != nil {
				compiled.err = err
				return
			}
		}
		list := map[string]any{"type": "array", "items": map[string]any{"$ref": "entry.schema.json"}}
		compiled.raw["entries.schema.json"] = list
		if err := c.AddResource(schemaBase+"entries.schema.json", list); err != nil {
			compiled.err = err
			return
		}
		compiled.schemas = map[string]*jsonschema.Schema{}
		for _, n := range append(slices.Clone(SchemaNames), "entries") {
			s, err := c.Compile(schemaBase + n + ".schema.json")
			if err != nil {
				compiled.err = err
				return
			}
			compiled.schemas[n] = s
		}
		compiled.fast = compileFast(compiled.raw)
	})
	if compiled.err != nil {
		// The schemas are embedded and tested: this is a build defect.
		panic("lore: embedded JSON Schema does not compile: " + compiled.err.Error())
	}
	return compiled.schemas[name]
}

// docCheck validates one document (the root node of one file, or a part of it)
// against a schema and maps each error to the position of its value.
type docCheck struct {
	file string
	root *yaml.Node
	// entryAt is the location of entries in this document, with "*" for any
	// index: []string{"entries", "*"} for a lorebook, {"*"} for a list, {} for
	// one entry, nil when the document holds no entries. Messages about an
	// entry's fields name the entry.
	entryAt []string
	// listName names a top-level list in messages ("messages" for a bare
	// list of messages), so paths read messages[1].content, not [1].content.
	listName string
}

// check validates the document against the named schema: the fast walk
// (fastcheck.go) when it can vouch for the document, else the validator.
func (c *docCheck) check(schemaName string) []diag.Diagnostic {
	s := compiledSchema(schemaName)
	if compiled.fast[schemaName].valid(c.root, 0) {
		return nil
	}
	err := s.Validate(ToValue(c.root))
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []diag.Diagnostic{diag.New(c.pos(c.root), diag.Error, "schema", "%v", err)}
	}
	var out []diag.Diagnostic
	c.leaves(ve, &out)
	return out
}

func (c *docCheck) pos(n *yaml.Node) Pos {
	return Pos{File: c.file, Line: n.Line, Col: n.Column}
}

func (c *docCheck) leaves(ve *jsonschema.ValidationError, out *[]diag.Diagnostic) {
	if len(ve.Causes) > 0 {
		for _, cause := range ve.Causes {
			c.leaves(cause, out)
		}
		return
	}
	c.leaf(ve, out)
}

// lookup finds the node at an instance location; key, when the last step is a
// mapping key, is that key's node.
func (c *docCheck) lookup(loc []string) (n, key *yaml.Node) {
	n = c.root
	for _, tok := range loc {
		r := resolve(n)
		switch {
		case r == nil:
			return n, key
		case r.Kind == yaml.MappingNode:
			ps, _ := pairs(r)
			found := false
			for _, p := range ps {
				if p.Key == tok {
					n, key, found = p.Value, p.KeyN, true
					break
				}
			}
			if !found {
				return n, nil
			}
		case r.Kind == yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(r.Content) {
				return n, nil
			}
			n, key = r.Content[i], nil
		default:
			return n, key
		}
	}
	return n, key
}

// prefix names the entry a location is inside, and returns the location
// relative to that entry, for messages like `entry "tavern": section must ...`.
func (c *docCheck) prefix(loc []string) (string, []string) {
	if c.entryAt == nil || len(loc) < len(c.entryAt) {
		return "", loc
	}
	for i, t := range c.entryAt {
		if t == "*" {
			if _, err := strconv.Atoi(loc[i]); err != nil {
				return "", loc
			}
		} else if loc[i] != t {
			return "", loc
		}
	}
	en, _ := c.lookup(loc[:len(c.entryAt)])
	for _, p := range pairsNoDup(en) {
		if p.Key == "id" {
			if id, ok := str(p.Value); ok && id != "" {
				return fmt.Sprintf("entry %q: ", id), loc[len(c.entryAt):]
			}
		}
	}
	if len(c.entryAt) > 0 {
		i, _ := strconv.Atoi(loc[len(c.entryAt)-1])
		return fmt.Sprintf("entry #%d: ", i+1), loc[len(c.entryAt):]
	}
	return "entry: ", loc
}

func pairsNoDup(n *yaml.Node) []pair { ps, _ := pairs(n); return ps }

// fieldPath writes a location as creators read it: conditions[0].operator.
func fieldPath(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		if _, err := strconv.Atoi(t); err == nil {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

var printer = message.NewPrinter(language.English)

func (c *docCheck) leaf(ve *jsonschema.ValidationError, out *[]diag.Diagnostic) {
	loc := ve.InstanceLocation
	node, _ := c.lookup(loc)
	pre, rel := c.prefix(loc)
	field := fieldPath(rel)
	if c.listName != "" && strings.HasPrefix(field, "[") {
		field = c.listName + field
	}
	emit := func(n *yaml.Node, format string, args ...any) {
		*out = append(*out, diag.New(c.pos(n), diag.Error, "schema", pre+format, args...))
	}
	// what names the value in a sentence: "section", or "the entry" at the top.
	what := field
	if what == "" {
		what = "the value"
		if pre != "" {
			what = "it"
		}
	}
	got := ToValue(node)
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			emit(node, "missing required field %q", m)
		}
	case *kind.AdditionalProperties:
		allowed := c.allowedProperties(ve.SchemaURL)
		for _, p := range k.Properties {
			_, key := c.lookup(append(slices.Clone(loc), p))
			if key == nil {
				key = node
			}
			if s := suggest(p, allowed); s != "" {
				emit(key, "unknown field %q (did you mean %q?)", p, s)
			} else if len(allowed) > 0 && len(allowed) <= 12 {
				emit(key, "unknown field %q (known fields: %s)", p, strings.Join(allowed, ", "))
			} else {
				emit(key, "unknown field %q", p)
			}
		}
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		msg := fmt.Sprintf("%s must be one of %s, not %s", what, strings.Join(want, ", "), show(got))
		if s, ok := got.(string); ok {
			if sg := suggest(s, want); sg != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sg)
			}
		}
		emit(node, "%s", msg)
	case *kind.Type:
		emit(node, "%s must be %s, not %s", what, typeWords(k.Want), describe(got))
	case *kind.Pattern:
		if len(rel) == 1 && rel[0] == "id" {
			msg := fmt.Sprintf("id %q must be kebab-case: lowercase letters and digits in words joined by single hyphens", k.Got)
			if s := kebab(k.Got); s != "" {
				msg += fmt.Sprintf(" (e.g. %q)", s)
			}
			emit(node, "%s", msg)
		} else {
			emit(node, "%s %q does not match the pattern %s", what, k.Got, k.Want)
		}
	case *kind.MinLength:
		if k.Want == 1 {
			emit(node, "%s must not be empty", what)
		} else {
			emit(node, "%s must be at least %d characters long", what, k.Want)
		}
	case *kind.Minimum:
		emit(node, "%s must be at least %s, not %s", what, ratString(k.Want), show(got))
	case *kind.Maximum:
		emit(node, "%s must be at most %s, not %s", what, ratString(k.Want), show(got))
	case *kind.FalseSchema:
		emit(node, "%s is not allowed here", what)
	default:
		emit(node, "%s: %s", what, ve.ErrorKind.LocalizedString(printer))
	}
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// allowedProperties lists the properties of the object schema an
// additionalProperties error came from, for "did you mean".
func (c *docCheck) allowedProperties(schemaURL string) []string {
	u := strings.TrimPrefix(schemaURL, schemaBase)
	file, frag, _ := strings.Cut(u, "#")
	var cur any = compiled.raw[file]
	frag = strings.TrimSuffix(frag, "/additionalProperties")
	for _, t := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if t == "" {
			continue
		}
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			cur = v[t]
		case []any:
			i, _ := strconv.Atoi(t)
			if i >= 0 && i < len(v) {
				cur = v[i]
			}
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	var out []string
	for p := range props {
		if p != "$schema" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// suggest returns the allowed word closest to got, if it is close enough to
// be a typo: same letters ignoring case, '_' and '-', a plural/singular, or
// at most two edits.
func suggest(got string, allowed []string) string {
	norm := func(s string) string {
		return strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(s))
	}
	best, bestD := "", 3
	for _, a := range allowed {
		if norm(a) == norm(got) || norm(a) == norm(got)+"s" || norm(a)+"s" == norm(got) {
			return a
		}
		limit := 2
		if len(a) <= 4 {
			limit = 1
		}
		if d := diag.EditDistance(norm(got), norm(a)); d <= limit && d < bestD {
			best, bestD = a, d
		}
	}
	return best
}

// KebabID is the kebab-case spelling the schema proposes for an id that is
// not kebab-case ("" when it has none); lint --fix renames ids to it.
func KebabID(s string) string { return kebab(s) }

// kebab proposes a kebab-case spelling of an id, or "" when it has none.
func kebab(s string) string {
	var b strings.Builder
	dash := false
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case r >= 'A' && r <= 'Z':
			if i > 0 && !dash && b.Len() > 0 {
				prev := s[i-1]
				if prev >= 'a' && prev <= 'z' {
					b.WriteByte('-')
				}
			}
			b.WriteRune(r + 'a' - 'A')
			dash = false
		default:
			if b.Len() > 0 && !dash {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	out := strings.TrimSuffix(b.String(), "-")
	if out == s {
		return ""
	}
	return out
}

func typeWords(want []string) string {
	words := make([]string, len(want))
	for i, w := range want {
		switch w {
		case "integer":
			words[i] = "a whole number"
		case "number":
			words[i] = "a number"
		case "string":
			words[i] = "a string"
		case "boolean":
			words[i] = "true or false"
		case "array":
			words[i] = "a list"
		case "object":
			words[i] = "a mapping"
		case "null":
			words[i] = "null"
		default:
			words[i] = w
		}
	}
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// describe names a value's type, with the value when it is short.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("a boolean (%v)", x)
	case float64:
		if x == float64(int64(x)) {
			return fmt.Sprintf("a number (%d)", int64(x))
		}
		return fmt.Sprintf("a number (%s)", strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		if len(x) <= 40 {
			return fmt.Sprintf("a string (%q)", x)
		}
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%T", v)
}

// show writes a scalar value as in the source; collections by their type.
func show(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	}
	return describe(v)
}

// roomForPrompt reports a manifest whose response reserve is as large as its
// context window: nothing would be left for the prompt. A value the schema
// already rejected (a negative reserve) is not reasoned from.
func roomForPrompt(m *Manifest) []diag.Diagnostic {
	s := m.Settings
	pc, hasC := s.Fields["contextTokens"]
	pr, hasR := s.Fields["responseReserve"]
	if !hasC && !hasR || s.ContextTokens <= 0 || s.ResponseReserve < 0 || s.ResponseReserve < s.ContextTokens {
		return nil
	}
	from := "lore's default"
	if hasC {
		from = "settings.contextTokens"
	}
	at := pr
	if !hasR {
		at = pc
	}
	return []diag.Diagnostic{diag.New(at, diag.Error, "schema",
		"settings.responseReserve (%d tokens) is not below the context window (%d tokens, %s): nothing is left for the prompt; raise contextTokens or lower responseReserve",
		s.ResponseReserve, s.ContextTokens, from)}
}
