package schema

import (
	"gopkg.in/yaml.v3"
)

// Doc is one file read and parsed: its text and root node. A command that
// must find out what a file is before loading it (a lorebook, a transcript,
// a variables file, a foreign format) passes the Doc on, so that detecting the
// kind, recognising a foreign format and loading read and parse the file once.
type Doc struct {
	Path string
	// Data is the text, without a byte-order mark; positions refer to it.
	Data []byte
	// Root is the root value, never a DocumentNode.
	Root *yaml.Node
}

// ReadDoc reads and parses the file at path (see ParseFile).
func ReadDoc(path string) (*Doc, error) {
	data, err := ReadBytes(path)
	if err != nil {
		return nil, err
	}
	return ParseDoc(path, data)
}

// ParseDoc parses data read from path by other means (ReadBytes, a PNG
// card's chunk), with every check ParseFile makes. The error, when not nil,
// is a *ParseError.
func ParseDoc(path string, data []byte) (*Doc, error) {
	data, err := checkText(path, data)
	if err != nil {
		return nil, err
	}
	root, err := parseText(path, data)
	if err != nil {
		return nil, err
	}
	return &Doc{Path: path, Data: data, Root: root}, nil
}

// Kind says what the document is (DetectKind).
func (d *Doc) Kind() Kind { return DetectKind(d.Path, d.Root) }
