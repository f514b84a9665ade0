package canon

import (
	"bytes"

	"gopkg.in/yaml.v3"
)

// chunkFrom is how many entries make encodeYAMLDoc write the entries list a
// chunk at a time; chunkSize, how many a chunk holds. A variable so tests can
// make every list a chunked one.
var chunkFrom, chunkSize = 1024, 512

// placeholder stands for the entries list while the rest of the document is
// encoded.
const placeholder = "lore-fmt-entries-go-here-5c1f"

// encodeYAMLDoc encodes doc as yaml.v3 does with two-space indentation.
// yaml.v3's emitter keeps every event of a document until the end, so a file
// of 100,000 entries took 2 GB; a long entries: list of a text without
// comments is therefore encoded a chunk of entries at a time, each chunk
// under its own "entries:" key so that every line sits at the column it has
// in the whole document (the emitter folds long text at column 80), and the
// chunks are put where the list goes. The bytes are those of encoding the
// whole document (a test compares them).
func encodeYAMLDoc(doc *yaml.Node, data []byte) ([]byte, error) {
	root := doc.Content[0]
	key, seq := entriesList(root)
	if seq == nil || len(seq.Content) < chunkFrom || bytes.IndexByte(data, '#') >= 0 || bytes.Contains(data, []byte(placeholder)) {
		return encodeWhole(doc)
	}
	items := seq.Content
	seq.Content = []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: placeholder}}
	frame, err := encodeWhole(doc)
	seq.Content = items
	if err != nil {
		return nil, err
	}
	at := bytes.Index(frame, []byte("- "+placeholder+"\n"))
	if at < 0 {
		return encodeWhole(doc) // not laid out as expected: no shortcut
	}
	lineStart := bytes.LastIndexByte(frame[:at], '\n') + 1
	lineEnd := at + len("- "+placeholder+"\n")
	var out bytes.Buffer
	out.Grow(len(data) + len(data)/8)
	out.Write(frame[:lineStart])
	for lo := 0; lo < len(items); lo += chunkSize {
		part := *seq
		part.Content = items[lo:min(lo+chunkSize, len(items))]
		chunk, err := encodeWhole(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{
			{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key, &part}}}})
		if err != nil {
			return nil, err
		}
		out.Write(chunk[bytes.IndexByte(chunk, '\n')+1:]) // without its "entries:" line
	}
	out.Write(frame[lineEnd:])
	return out.Bytes(), nil
}

// entriesList is the key and the list of a mapping's entries: block list.
func entriesList(root *yaml.Node) (key, seq *yaml.Node) {
	if root.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value == "entries" && v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 {
			return k, v
		}
	}
	return nil, nil
}

// encodeWhole is yaml.v3's encoding of doc with two-space indentation.
func encodeWhole(doc *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
