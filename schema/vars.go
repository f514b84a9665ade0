package schema

import (
	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// LoadVars reads a variables file (SPEC §2): a mapping from variable id to
// value, which overrides the manifest's defaults. A "$schema" key, for
// editors, is not a variable.
func LoadVars(path string) (*Vars, []diag.Diagnostic, error) {
	doc, err := ReadDoc(path)
	if err != nil {
		return nil, nil, err
	}
	v, ds := LoadVarsDoc(doc)
	return v, ds, nil
}

// LoadVarsDoc loads a variables file that has been read and parsed.
func LoadVarsDoc(doc *Doc) (*Vars, []diag.Diagnostic) {
	path, root := doc.Path, doc.Root
	v := &Vars{Path: path, Values: map[string]any{}, Pos: map[string]Pos{}}
	d := newDecoder(path, doc.Data)
	if root.Kind != yaml.MappingNode {
		return v, []diag.Diagnostic{diag.New(d.pos(root), diag.Error, "schema",
			"a variables file must be a mapping from variable id to value, not %s", kindName(root))}
	}
	ds := (&docCheck{file: path, root: root}).check("vars")
	for _, p := range d.fields(root) {
		if p.Key == "$schema" {
			continue
		}
		v.Values[p.Key] = ToValue(p.Value)
		v.Pos[p.Key] = d.pos(p.Value)
	}
	return v, diag.Sort(append(ds, d.diags...))
}
