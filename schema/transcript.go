package schema

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
)

// LoadTranscript reads a chat to render against (SPEC §2): a mapping with
// messages, summary, memory, pending and persona; a bare list of messages
// (OpenAI-style {role, content} arrays, content a string or a list of
// {type: text, text} parts); or a SillyTavern .jsonl chat (a header line, then
// one {name, is_user, is_system, mes} object per line), detected by content.
func LoadTranscript(path string) (*Transcript, []diag.Diagnostic, error) {
	data, err := ReadBytes(path)
	if err != nil {
		return nil, nil, err
	}
	return LoadTranscriptBytes(path, data)
}

// LoadTranscriptBytes is LoadTranscript for data read by other means
// (standard input), called path in positions and for detection (.jsonl).
func LoadTranscriptBytes(path string, data []byte) (*Transcript, []diag.Diagnostic, error) {
	data, err := checkText(path, data)
	if err != nil {
		return nil, nil, err
	}
	if isJSONL(path, data) {
		t := &Transcript{Path: path}
		ds, err := loadJSONL(t, path, data)
		return t, diag.Sort(ds), err
	}
	root, err := parseText(path, data)
	if err != nil {
		return nil, nil, err
	}
	t, ds := LoadTranscriptDoc(&Doc{Path: path, Data: data, Root: root})
	return t, ds, nil
}

// LoadTranscriptDoc loads a transcript that has been read and parsed (not a
// SillyTavern .jsonl chat, which is not one document: LoadTranscript reads it).
func LoadTranscriptDoc(doc *Doc) (*Transcript, []diag.Diagnostic) {
	path, root := doc.Path, doc.Root
	t := &Transcript{Path: path}
	d := newDecoder(path, doc.Data)
	switch root.Kind {
	case yaml.SequenceNode, yaml.MappingNode:
		ds := (&docCheck{file: path, root: root, listName: "messages"}).check("transcript")
		d.transcript(t, root)
		return t, diag.Sort(append(ds, d.diags...))
	}
	return t, []diag.Diagnostic{diag.New(d.pos(root), diag.Error, "schema",
		"expected a transcript (a mapping with messages:, or a list of messages), found %s", kindName(root))}
}

// transcript decodes a transcript mapping, or a bare list of messages, into t.
func (d *decoder) transcript(t *Transcript, root *yaml.Node) {
	if root.Kind == yaml.SequenceNode {
		t.Messages = d.messages(root)
	} else {
		for _, p := range d.fields(root) {
			switch p.Key {
			case "messages":
				t.Messages = d.messages(p.Value)
			case "summary":
				t.Summary, _ = str(p.Value)
			case "memory":
				t.Memory = d.items(p.Value)
			case "pending":
				t.Pending = d.items(p.Value)
			case "persona":
				if r := resolve(p.Value); r != nil && r.Kind == yaml.MappingNode {
					t.Persona = d.persona(p.Value)
				}
			}
		}
	}
}

func (d *decoder) messages(n *yaml.Node) []Message {
	var out []Message
	for _, c := range items(n) {
		m := Message{Pos: d.pos(c)}
		for _, p := range d.fields(c) {
			switch p.Key {
			case "role":
				m.Role, _ = str(p.Value)
			case "name":
				m.Name, _ = str(p.Value)
			case "content":
				if s, ok := str(p.Value); ok {
					m.Content = s
					break
				}
				// OpenAI content parts: the text parts, one per line.
				var parts []string
				for _, part := range items(p.Value) {
					typ, text := "", ""
					for _, pp := range pairsNoDup(part) {
						switch pp.Key {
						case "type":
							typ, _ = str(pp.Value)
						case "text":
							text, _ = str(pp.Value)
						}
					}
					if typ == "text" {
						parts = append(parts, text)
					}
				}
				m.Content = strings.Join(parts, "\n")
			}
		}
		out = append(out, m)
	}
	return out
}

// items decodes memory or pending items: strings, or {content} / {text}.
func (d *decoder) items(n *yaml.Node) []Item {
	var out []Item
	for _, c := range items(n) {
		if s, ok := str(c); ok {
			out = append(out, Item{Text: s, Pos: d.pos(c)})
			continue
		}
		it := Item{Pos: d.pos(c)}
		for _, p := range d.fields(c) {
			if p.Key == "content" || p.Key == "text" {
				it.Text, _ = str(p.Value)
				it.Pos = d.pos(p.Value)
			}
		}
		out = append(out, it)
	}
	return out
}

// isJSONL says whether data is JSON Lines: by extension, or a first line that
// is a whole JSON object followed by another line starting with '{'.
func isJSONL(path string, data []byte) bool {
	if strings.EqualFold(extOf(path), ".jsonl") {
		return true
	}
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	first, rest, ok := bytes.Cut(t, []byte("\n"))
	if !ok {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if len(rest) == 0 || rest[0] != '{' {
		return false
	}
	_, err := parseJSON(path, first, 0, len(first))
	return err == nil
}

// loadJSONL reads a SillyTavern chat: each non-blank line is a JSON object; a
// line without mes but with user_name or character_name is the header.
func loadJSONL(t *Transcript, path string, data []byte) ([]diag.Diagnostic, error) {
	cur := &cursor{data: data, file: path, line: 1, col: 1}
	d := newDecoder(path, data)
	var ds []diag.Diagnostic
	start := 0
	for start < len(data) {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		line := data[start:end]
		lineStart := start
		start = end + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		n, err := parseJSONAt(cur, lineStart, end)
		if err != nil {
			return ds, err
		}
		if n.Kind != yaml.MappingNode {
			ds = append(ds, diag.New(d.pos(n), diag.Error, "schema",
				"each line of a SillyTavern chat must be a JSON object, not %s", kindName(n)))
			continue
		}
		ps := d.fields(n)
		get := func(k string) *yaml.Node {
			for _, p := range ps {
				if p.Key == k {
					return p.Value
				}
			}
			return nil
		}
		mes := get("mes")
		if mes == nil {
			if get("user_name") != nil || get("character_name") != nil || get("chat_metadata") != nil {
				continue // the header
			}
			ds = append(ds, diag.New(d.pos(n), diag.Error, "schema", "missing required field %q", "mes"))
			continue
		}
		m := Message{Pos: d.pos(n), Role: "assistant"}
		if r := resolve(mes); r.Kind == yaml.ScalarNode && r.ShortTag() == "!!str" {
			m.Content, m.TextPos = r.Value, d.pos(r)
		} else {
			ds = append(ds, diag.New(d.pos(mes), diag.Error, "schema", "mes must be a string, not %s", kindName(mes)))
		}
		if v := get("name"); v != nil {
			m.Name, _ = str(v)
		}
		if b, _ := boolean(get("is_user")); b {
			m.Role = "user"
		}
		if b, _ := boolean(get("is_system")); b {
			m.Role = "system"
		}
		t.Messages = append(t.Messages, m)
	}
	return append(ds, d.diags...), nil
}
