package schema

import (
	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// EngineSettings is an engine's settings object kept in a file of its own
// (`--st-settings FILE`: a manifest's settings.sillytavern as JSON or YAML),
// decoded as the manifest's settings.<engine> is.
type EngineSettings struct {
	Path   string
	Engine string
	Values map[string]any
	// Pos is where the file sets each key's value.
	Pos map[string]Pos
}

// LoadEngineSettings reads an engine's settings file and checks it against
// that engine's settings object in lorebook.schema.json, with the manifest's
// words (settings.sillytavern.scanDepth must be …) at the offending value's
// line and column of this file. err is for a file that cannot be read or
// parsed.
func LoadEngineSettings(path, engine string) (*EngineSettings, []diag.Diagnostic, error) {
	doc, err := ReadDoc(path)
	if err != nil {
		return nil, nil, err
	}
	// The file's root is checked in place, as the value of settings.<engine>
	// in a manifest that has nothing else: the schema, its messages and the
	// positions are the manifest's, without a schema of its own.
	ds := (&docCheck{file: path, root: wrapIn("settings", wrapIn(engine, doc.Root))}).check("lorebook")
	es := &EngineSettings{Path: path, Engine: engine, Values: map[string]any{}, Pos: map[string]Pos{}}
	if m, ok := ToValue(doc.Root).(map[string]any); ok {
		es.Values = m
	}
	d := newDecoder(path, doc.Data)
	for _, p := range d.fields(doc.Root) {
		es.Pos[p.Key] = d.pos(p.Value)
	}
	return es, diag.Sort(append(ds, d.diags...)), nil
}

// wrapIn is a mapping node {key: v} that no file holds.
func wrapIn(key string, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
		Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v}}
}
