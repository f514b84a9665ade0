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
	return schemaText(name)
}

// engineNames are the engines settings.engine may name (SetEngines).
var engineNames []string

// SetEngines gives the lorebook schema's settings.engine its enum: the
// engines lore has, which package engine's registry lists (it calls this
// when it is loaded, before any check). Without it any engine name passes
// the schema.
func SetEngines(names []string) { engineNames = slices.Clone(names) }

// engineProperty is settings.engine in lorebook.schema.json, which the
// registry's names turn into an enum.
const engineProperty = `"engine": {"type": "string", "default": "lore",`

// schemaText is an embedded schema, with settings.engine's enum filled in.
func schemaText(name string) ([]byte, error) {
	b, err := schemaFS.ReadFile(name + ".schema.json")
	if err != nil || name != "lorebook" || len(engineNames) == 0 {
		return b, err
	}
	quoted := make([]string, len(engineNames))
	for i, n := range engineNames {
		quoted[i] = strconv.Quote(n)
	}
	enum := `"engine": {"enum": [` + strings.Join(quoted, ", ") + `], "default": "lore",`
	return bytes.Replace(b, []byte(engineProperty), []byte(enum), 1), nil
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
			b, _ := schemaText(n)
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

// suggest is diag.Suggest: fields, flags and values are corrected alike.
func suggest(got string, allowed []string) string { return diag.Suggest(got, allowed) }
