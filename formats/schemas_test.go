package formats

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lorekit/lore/internal/testcorpus"
)

func compileForeign(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	text, err := SchemaJSON(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	url := "https://json.schemastore.org/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s does not compile: %v", name, err)
	}
	return s
}

// schemaFor is the schema a real file is checked against: SillyTavern's
// for a world info file, the card's spec for a card.
func schemaFor(t *testing.T, v any) string {
	m, _ := v.(map[string]any)
	switch m["spec"] {
	case "chara_card_v2":
		return "card-v2"
	case "chara_card_v3":
		return "card-v3"
	}
	if _, ok := m["entries"]; ok {
		return "sillytavern"
	}
	return ""
}

// TestForeignSchemasAcceptRealFiles: every SillyTavern world info file and
// card of the corpus (PNG cards through their chara chunk) and of lore's
// fixtures is valid against its schema.
func TestForeignSchemasAcceptRealFiles(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{}
	for _, n := range SchemaNames {
		schemas[n] = compileForeign(t, n)
	}
	var files []string
	if dir := testcorpus.Find(t); dir != "" {
		for _, sub := range []string{"sillytavern", "tavern_kit", "cards"} {
			m, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
			files = append(files, m...)
		}
	}
	for _, f := range []string{"st_edge_cases.json", "st_empty.json", "st_string_keys.json", "card_v2_minimal.json", "card_v3_decorators.json", "card_v3_both_chunks.png"} {
		files = append(files, filepath.Join("..", "fixtures", "formats", f))
	}
	checked := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".png") {
			if data, _, err = cardJSONFromPNG(data); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			continue // tavern_kit/invalid.json: not JSON, no schema's business
		}
		name := schemaFor(t, v)
		if name == "" {
			continue
		}
		checked[name]++
		if err := schemas[name].Validate(v); err != nil {
			t.Errorf("%s is not valid against %s: %v", f, name, err)
		}
	}
	for _, n := range SchemaNames {
		if checked[n] == 0 {
			t.Errorf("no file checked against %s", n)
		}
	}
	t.Logf("checked %v", checked)
}

// TestForeignSchemasRefuse: the schemas say something — a mistyped field
// and a missing part are refused.
func TestForeignSchemasRefuse(t *testing.T) {
	for _, c := range []struct{ schema, doc string }{
		{"sillytavern", `{"entries": {"0": {"uid": 0, "key": ["a"], "position": 9}}}`},
		{"sillytavern", `{"entries": {"0": {"uid": 0, "key": [1]}}}`},
		{"sillytavern", `{"entries": {"0": {"uid": 0, "probability": 150}}}`},
		{"sillytavern", `{"name": "no entries"}`},
		{"card-v2", `{"spec": "chara_card_v2", "spec_version": "2.0"}`},
		{"card-v2", `{"spec": "chara_card_v3", "spec_version": "2.0", "data": {"name": "x"}}`},
		{"card-v2", `{"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "x", "character_book": {"entries": [{"keys": ["a"]}]}}}`},
		{"card-v3", `{"spec": "chara_card_v3", "spec_version": "3.0", "data": {"name": "x", "assets": [{"type": "icon"}]}}`},
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := compileForeign(t, c.schema).Validate(v); err == nil {
			t.Errorf("%s accepts %s", c.schema, c.doc)
		}
	}
}

// The schemas are JSON that SchemaStore's tooling reads: draft-07, an $id
// under json.schemastore.org, a title and a description.
func TestForeignSchemasHeaders(t *testing.T) {
	for _, n := range SchemaNames {
		b, _ := SchemaJSON(n)
		var h struct {
			Schema      string `json:"$schema"`
			ID          string `json:"$id"`
			Title       string `json:"title"`
			Description string `json:"description"`
		}
		if err := json.Unmarshal(b, &h); err != nil {
			t.Fatal(err)
		}
		if h.Schema != "http://json-schema.org/draft-07/schema#" || !strings.HasPrefix(h.ID, "https://json.schemastore.org/") || h.Title == "" || h.Description == "" {
			t.Errorf("%s: header %+v", n, h)
		}
	}
	if _, err := SchemaJSON("card-v4"); err == nil {
		t.Error("an unknown schema name is not refused")
	}
}
