package schema

import (
	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// What `lore test` needs from this package: its test files are YAML or JSON
// documents read with ParseFile, checked against test.schema.json, and they
// hold pieces of lore's own documents inline (a transcript, the settings of a
// manifest), decoded here so that they mean exactly what they mean elsewhere.

// CheckTest validates a test file's root node against test.schema.json and
// returns one diagnostic per problem, at the offending value.
func CheckTest(file string, root *yaml.Node) []diag.Diagnostic {
	return (&docCheck{file: file, root: root}).check("test")
}

// Field is one key and value of a mapping, after aliases and merge keys.
type Field struct {
	Key   string
	KeyN  *yaml.Node
	Value *yaml.Node
}

// Fields lists a mapping's keys in source order, with aliases followed and
// YAML merge keys (<<: *base) applied, and reports keys given twice (which
// would silently lose a value). Anything but a mapping has no fields.
func Fields(file string, m *yaml.Node) ([]Field, []diag.Diagnostic) {
	d := newDecoder(file, nil)
	ps := d.fields(m)
	out := make([]Field, len(ps))
	for i, p := range ps {
		out[i] = Field(p)
	}
	return out, d.diags
}

// Resolve follows aliases (and a document node) to the value they name.
func Resolve(n *yaml.Node) *yaml.Node { return resolve(n) }

// DecodeTranscript decodes a transcript written inside another document (a
// mapping with messages, summary, memory, pending and persona, or a bare list
// of messages) that has already been checked against transcript.schema.json.
func DecodeTranscript(file string, n *yaml.Node) (*Transcript, []diag.Diagnostic) {
	t := &Transcript{Path: file}
	d := newDecoder(file, nil)
	if r := resolve(n); r != nil && (r.Kind == yaml.MappingNode || r.Kind == yaml.SequenceNode) {
		d.transcript(t, r)
	}
	return t, d.diags
}

// DecodeMessages decodes a list of chat messages written inside another
// document.
func DecodeMessages(file string, n *yaml.Node) ([]Message, []diag.Diagnostic) {
	d := newDecoder(file, nil)
	return d.messages(n), d.diags
}

// DecodeSettings decodes a settings mapping written as a manifest's settings:
// is, starting from lore's defaults; the result's Fields say which keys the
// mapping set ("contextTokens", "shares.cards", …), so a caller can lay them
// over other settings.
func DecodeSettings(file string, n *yaml.Node) (Settings, []diag.Diagnostic) {
	d := newDecoder(file, nil)
	return d.settings(n), d.diags
}
