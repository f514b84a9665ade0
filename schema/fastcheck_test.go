package schema

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"
)

// checkFast holds for any document and schema: the fast walk never calls
// valid what the validator refuses.
func checkFast(t *testing.T, name string, root *yaml.Node) (fast, full bool) {
	t.Helper()
	full = compiledSchema(name).Validate(ToValue(root)) == nil
	fast = compiled.fast[name].valid(root, 0)
	if fast && !full {
		out, _ := yaml.Marshal(root)
		t.Errorf("the fast walk calls this valid against %s, the validator does not:\n%s", name, out)
	}
	return fast, full
}

var schemaNamesAll = append(slices.Clone(SchemaNames), "entries")

// bulkSchemas are those of the files lore reads in bulk (lorebooks and their
// entries, transcripts, variables): the fast walk must know every keyword
// they use. Others (lore test's files) may take the slow path.
var bulkSchemas = []string{"entry", "entries", "lorebook", "transcript", "vars"}

// TestFastCheckAgreesWithValidator runs both on every fixture and every bad
// input: never valid where the validator says invalid, and valid wherever the
// validator says valid (else valid books would take the slow path).
func TestFastCheckAgreesWithValidator(t *testing.T) {
	var files []string
	for _, g := range []string{"testdata/bad/*", "../fixtures/*/*.yaml", "../fixtures/*/*/*.yaml", "../fixtures/*/*/*/*.yaml", "../fixtures/formats/*.json", "../cmd/initdata/*.yaml", "../cmd/initdata/*/*/*.yaml"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 50 {
		t.Fatalf("only %d inputs: the fixtures moved?", len(files))
	}
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		root, err := ParseBytes(f, data)
		if err != nil {
			continue
		}
		for _, name := range schemaNamesAll {
			fast, full := checkFast(t, name, root)
			if full && !fast && slices.Contains(bulkSchemas, name) {
				t.Errorf("%s is valid against %s, but the fast walk is not sure: it takes the slow path", f, name)
			}
			checked++
		}
	}
	t.Logf("%d document × schema pairs", checked)
}

// TestFastCheckKnowsEveryKeyword fails when a schema uses a keyword the fast
// walk does not implement: every document would then take the slow path.
func TestFastCheckKnowsEveryKeyword(t *testing.T) {
	compiledSchema("entry")
	seen := map[*fastSchema]bool{}
	var walk func(path string, s *fastSchema)
	walk = func(path string, s *fastSchema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.unknown {
			t.Errorf("%s: a keyword the fast walk does not implement (fastcheck.go): add it, or validation of every book takes the slow path", path)
		}
		for k, p := range s.props {
			walk(path+"/properties/"+k, p)
		}
		walk(path+"/additionalProperties", s.additional)
		walk(path+"/items", s.items)
		walk(path+"/propertyNames", s.names)
		walk(path+"/$ref", s.ref)
	}
	for _, name := range bulkSchemas {
		walk(name, compiled.fast[name])
	}
	if len(seen) < 30 {
		t.Errorf("only %d subschemas compiled", len(seen))
	}
}

// TestFastCheckCases pins the edges of the subset: types, integers, enums,
// bounds, patterns, lengths, required and unknown fields, merge keys.
func TestFastCheckCases(t *testing.T) {
	for _, c := range []struct {
		schema, doc string
		valid       bool
	}{
		{"entry", "{id: a, section: examples, content: x}", true},
		{"entry", "{id: a, section: examples, content: x, position: 2.0}", true},
		{"entry", "{id: a, section: examples, content: x, position: 2.5}", false},
		{"entry", "{id: a, section: examples, content: x, position: 0x10}", true},
		{"entry", "{id: A, section: examples, content: x}", false},
		{"entry", "{id: a, section: example, content: x}", false},
		{"entry", "{id: a, section: examples}", false},
		{"entry", "{id: a, section: examples, content: x, keyword: [k]}", false},
		{"entry", "{id: a, section: examples, content: x, keywords: ['']}", false},
		{"entry", "{id: a, section: examples, content: x, depth: null}", true},
		{"entry", "{id: a, section: examples, content: x, enabled: yes}", false},
		{"entry", "{id: a, section: examples, content: 12}", false},
		{"entry", "{id: a, section: examples, content: x, extensions: {any: [1, {b: c}]}}", true},
		{"entry", "{id: a, section: examples, content: x, conditions: [{variableId: v, operator: gt, value: [1]}]}", true},
		{"entry", "{id: a, section: examples, content: x, conditions: [{variableId: v, operator: more}]}", false},
		{"entry", "{<<: {id: a, section: examples}, content: x}", true},
		{"lorebook", "{name: n, settings: {requiredCap: 0.5, contextTokens: 1}}", true},
		{"lorebook", "{name: n, settings: {requiredCap: 1.5}}", false},
		{"lorebook", "{name: n, settings: {contextTokens: 0}}", false},
		{"lorebook", "{name: n, entries: [{id: a, section: examples, content: x}, {id: b}]}", false},
		{"vars", "{gold: 5, name: x}", true},
		{"lorebook", "{name: n, settings: {sillytavern: {authorsNote: {role: 1, position: 1}}}}", true},
		{"lorebook", "{name: n, settings: {sillytavern: {authorsNote: {role: 3}}}}", false},
		{"lorebook", "{name: n, settings: {sillytavern: {authorsNote: {position: 2}}}}", false},
		{"lorebook", "{name: n, settings: {sillytavern: {authorsNote: {role: '1'}}}}", false},
		{"transcript", "{messages: [{role: user, content: hi}]}", true},
		{"transcript", "[{role: user, content: [{type: text, text: hi}]}]", true},
		{"transcript", "[{role: narrator, content: hi}]", false},
	} {
		root, err := ParseBytes("x.yaml", []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		fast, full := checkFast(t, c.schema, root)
		if fast != c.valid || full != c.valid {
			t.Errorf("%s against %s: fast walk %v, validator %v, want %v", c.doc, c.schema, fast, full, c.valid)
		}
	}
}

func FuzzFastCheck(f *testing.F) {
	addSeeds(f, "testdata/bad/*.yaml", "../fixtures/*/*.yaml", "../fixtures/*/*/*.yaml", "../fixtures/*/*/*/*.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := ParseBytes("x.yaml", data)
		if err != nil {
			return
		}
		for _, name := range schemaNamesAll {
			checkFast(t, name, root)
		}
	})
}
