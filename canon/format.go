package canon

// Source formatting (lore fmt): lore's own YAML and JSON files rewritten in the
// canonical layout. It works on the yaml.v3 node tree of the original text, so
// comments travel with the keys they belong to, and it only reorders keys and
// re-indents: values, quoting of single-line strings and comments are kept. Before
// any text is returned it is parsed again and compared with the original, value
// by value and through the loaded model (verify.go), so a formatting bug refuses
// instead of changing what a lorebook says.

import (
	"bytes"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// SourceRole says how a file's top level is read: a folder's entry files are
// entries whatever their keys, its manifest is a manifest; a file named on its
// own is detected like schema.Load does.
type SourceRole int

const (
	RoleAuto SourceRole = iota
	RoleManifest
	RoleEntries
)

// entryKeyOrder is the order of an entry's keys in lore's files (SPEC §1),
// followed by lint and extensions; other keys keep their order after these.
// The writer (entryNode) and fmt both sort by it.
var entryKeyOrder = []string{
	"id", "name", "content", "role", "apiRole", "section", "position", "enabled",
	"alwaysSend", "keywords", "conditions", "conditionLogic", "depth", "matchWholeWords",
	"secondaryKeywords", "secondaryKeywordLogic", "preventRecursion", "excludeRecursion",
	"tags", "folderId", "lint", "extensions",
}

// manifestKeyOrder is the order of a manifest's top-level keys (SPEC §2). Keys
// not listed go after extensions and before entries, in their original order.
var manifestKeyOrder = []string{
	"name", "description", "character", "settings", "variables", "persona", "format",
	"presets", "transforms", "folders", "extensions",
}

// flowLists are the list-valued keys written in flow style ([a, b]) when short.
var flowLists = map[string]bool{
	"keywords": true, "secondaryKeywords": true, "tags": true, "presets": true, "ignore": true,
}

// flowWidth is the longest flow list (sum of item lengths plus separators).
const flowWidth = 60

// RefusalError is a file lore fmt will not format: it uses a construct the
// formatter cannot keep (YAML anchors), or the formatted text would not say
// what the original says (a formatter bug caught by the safety check).
type RefusalError struct {
	File string
	Msg  string
	// Skip says the file is left alone as it should be, not refused for a
	// fault: YAML anchors and aliases (which docs/lorebook.md puts under
	// extensions:) have no place in fmt's layout, and formatting would
	// expand them. fmt notes it and goes on.
	Skip bool
}

func (e *RefusalError) Error() string { return e.File + ": " + e.Msg }

// FormatFile formats the lore file at path. It returns the original bytes,
// exactly as read (a byte-order mark included: the formatted text has none, so
// a file that starts with one is reported as changed), and the formatted ones. The error is a
// *schema.ParseError (or several joined) for a file that does not load, and a
// *RefusalError for one that fmt leaves alone.
func FormatFile(path string, role SourceRole) (orig, out []byte, err error) {
	doc, err := schema.ReadDoc(path)
	if err != nil {
		return nil, nil, err
	}
	return FormatDoc(doc, role)
}

// FormatDoc is FormatFile for a file the caller has already parsed (lore fmt
// reads each file once to check it, then formats that tree). The tree is
// the formatter's from then on: formatting JSON reorders it.
func FormatDoc(doc *schema.Doc, role SourceRole) (orig, out []byte, err error) {
	raw, err := schema.ReadBytes(doc.Path)
	if err != nil {
		return nil, nil, &schema.ParseError{Pos: diag.Pos{File: doc.Path}, Msg: err.Error()}
	}
	return FormatDocBytes(doc, raw, role)
}

// FormatDocBytes is FormatDoc for a document whose bytes as read are raw
// (standard input, which cannot be read again).
func FormatDocBytes(doc *schema.Doc, raw []byte, role SourceRole) (orig, out []byte, err error) {
	path, root, data := doc.Path, doc.Root, doc.Data
	out, err = formatSource(path, data, root, role)
	if err != nil {
		return raw, nil, err
	}
	// yaml.v3 does not always place a comment where it read it from (a foot
	// comment after an empty value moves up a line): formatting again until
	// nothing moves makes fmt idempotent. Two more rounds settle every case
	// seen; a file that still moves is refused rather than churned. YAML
	// without a comment does not move (a test formats thousands of them
	// twice), so it needs no second round.
	// Formatting YAML reads the text again with yaml.v3 and leaves schema's
	// tree as it was: verify compares with that tree instead of parsing the
	// original a third time. Formatting JSON reorders the tree, which may go.
	var origDoc *schema.Doc
	if !schema.IsJSON(path, data) {
		origDoc = &schema.Doc{Path: path, Data: data, Root: root}
	}
	root, doc.Root = nil, nil
	for round := 0; bytes.IndexByte(out, '#') >= 0 || schema.IsJSON(path, out); round++ {
		var r *yaml.Node // only JSON formatting needs schema's tree
		if schema.IsJSON(path, out) {
			if r, err = schema.ParseBytes(path, out); err != nil {
				return raw, nil, &RefusalError{File: path, Msg: "the formatted text does not parse: " + err.Error() + "; nothing was written. Please report this as a lore fmt bug"}
			}
		}
		again, err := formatSource(path, out, r, role)
		if err != nil {
			return raw, nil, err
		}
		if bytes.Equal(again, out) {
			break
		}
		if round == 2 {
			return raw, nil, &RefusalError{File: path, Msg: "the formatted text does not settle (a comment moves each time); lore fmt leaves it alone"}
		}
		out = again
	}
	if bytes.Equal(out, data) {
		return raw, out, nil // already in lore fmt's layout: nothing to verify
	}
	if err := verify(path, data, out, origDoc); err != nil {
		return raw, nil, err
	}
	return raw, out, nil
}

// formatSource formats data (the text of path, already checked by
// schema.ParseFile, whose root it is given) without verifying the result.
func formatSource(path string, data []byte, root *yaml.Node, role SourceRole) ([]byte, error) {
	if schema.IsJSON(path, data) {
		if anchored(root) {
			return nil, &RefusalError{File: path, Msg: "uses YAML anchors or merge keys; lore fmt leaves it alone", Skip: true}
		}
		reorderTop(root, role)
		var b bytes.Buffer
		WriteJSON(&b, root, "  ")
		b.WriteByte('\n')
		return b.Bytes(), nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, &RefusalError{File: path, Msg: "cannot read the YAML document again"}
	}
	if anchored(&doc) {
		return nil, &RefusalError{File: path, Msg: "uses YAML anchors or merge keys; lore fmt leaves it alone", Skip: true}
	}
	blank := blankMarks(data, doc.Content[0])
	reorderTop(doc.Content[0], role)
	styleTree(doc.Content[0], "")
	want := make([]bool, 0, len(blank))
	for _, n := range spacedNodes(doc.Content[0]) {
		want = append(want, blank[n])
	}
	out, err := encodeYAMLDoc(&doc, data)
	if err != nil {
		return nil, &RefusalError{File: path, Msg: "cannot write the formatted YAML: " + err.Error()}
	}
	return addBlankLines(out, want), nil
}

// spacedNodes are the nodes that keep a blank line written before them: the
// top-level keys of a mapping file and the entries of its entries: list, or
// the items of a list file. yaml.v3 drops blank lines; without this, fmt would
// squash a lorebook laid out with a blank line between entries.
func spacedNodes(root *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	switch root.Kind {
	case yaml.SequenceNode:
		out = append(out, root.Content...)
	case yaml.MappingNode:
		for i := 0; i+1 < len(root.Content); i += 2 {
			out = append(out, root.Content[i])
			if root.Content[i].Value == "entries" && root.Content[i+1].Kind == yaml.SequenceNode {
				out = append(out, root.Content[i+1].Content...)
			}
		}
	}
	return out
}

// blankMarks says which spaced nodes have a blank line above them (above
// their comment lines, if any) in data.
func blankMarks(data []byte, root *yaml.Node) map[*yaml.Node]bool {
	lines := strings.Split(string(data), "\n")
	marks := map[*yaml.Node]bool{}
	for _, n := range spacedNodes(root) {
		l := n.Line - 2 // 0-based index of the line above
		for l >= 0 && strings.HasPrefix(strings.TrimSpace(lines[l]), "#") {
			l--
		}
		if l > 0 && l < len(lines) && strings.TrimSpace(lines[l]) == "" {
			marks[n] = true
		}
	}
	return marks
}

// addBlankLines puts a blank line above (the comments of) every spaced node
// of out whose want is true, unless it starts its collection or a blank line
// is there already. Only lines of comments at the node's own indentation are
// stepped over, so a block scalar's text above is never split.
func addBlankLines(out []byte, want []bool) []byte {
	some := false
	for _, w := range want {
		some = some || w
	}
	if !some {
		return out
	}
	var doc yaml.Node
	if yaml.Unmarshal(out, &doc) != nil || len(doc.Content) != 1 {
		return out
	}
	nodes := spacedNodes(doc.Content[0])
	if len(nodes) != len(want) {
		return out
	}
	lines := strings.Split(string(out), "\n")
	insert := map[int]bool{} // 0-based line indexes to put a blank line above
	first := map[*yaml.Node]bool{}
	if r := doc.Content[0]; r.Kind == yaml.SequenceNode && len(r.Content) > 0 {
		first[r.Content[0]] = true
	} else if r.Kind == yaml.MappingNode {
		if len(r.Content) > 0 {
			first[r.Content[0]] = true
		}
		for i := 0; i+1 < len(r.Content); i += 2 {
			if r.Content[i].Value == "entries" && r.Content[i+1].Kind == yaml.SequenceNode && len(r.Content[i+1].Content) > 0 {
				first[r.Content[i+1].Content[0]] = true
			}
		}
	}
	for i, n := range nodes {
		if !want[i] || first[n] || n.Line < 2 || n.Line > len(lines) {
			continue
		}
		indent := n.Column - 1
		if n.Kind != yaml.ScalarNode { // a list item: its "- " is 2 columns left
			indent -= 2
		}
		l := n.Line - 1
		for l > 0 {
			prev := lines[l-1]
			t := strings.TrimLeft(prev, " ")
			if !strings.HasPrefix(t, "#") || len(prev)-len(t) != indent {
				break
			}
			l--
		}
		if l > 0 && strings.TrimSpace(lines[l-1]) != "" {
			insert[l] = true
		}
	}
	var b strings.Builder
	for i, line := range lines {
		if insert[i] {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		if i < len(lines)-1 {
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// anchored reports an anchor, an alias or a merge key anywhere in the tree.
func anchored(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return true
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge" {
				return true
			}
		}
	}
	for _, c := range n.Content {
		if anchored(c) {
			return true
		}
	}
	return false
}

// reorderTop puts the keys of the file's entries and manifest in canonical order.
func reorderTop(root *yaml.Node, role SourceRole) {
	switch root.Kind {
	case yaml.SequenceNode:
		for _, c := range root.Content {
			if c.Kind == yaml.MappingNode {
				reorder(c, entryKeyOrder, "")
			}
		}
	case yaml.MappingNode:
		isEntry := role == RoleEntries
		if role == RoleAuto {
			isEntry = !hasKey(root, "entries") && (hasKey(root, "id") || hasKey(root, "section") ||
				hasKey(root, "content") || hasKey(root, "keywords"))
		}
		// The comment above the file's first key is the file's comment (a
		// yaml-language-server modeline, a title): it stays at the top.
		top := ""
		if len(root.Content) > 0 {
			top = root.Content[0].HeadComment
			root.Content[0].HeadComment = ""
		}
		if isEntry {
			reorder(root, entryKeyOrder, "")
		} else {
			reorder(root, manifestKeyOrder, "entries")
			for i := 0; i+1 < len(root.Content); i += 2 {
				if root.Content[i].Value == "entries" && root.Content[i+1].Kind == yaml.SequenceNode {
					for _, c := range root.Content[i+1].Content {
						if c.Kind == yaml.MappingNode {
							reorder(c, entryKeyOrder, "")
						}
					}
				}
			}
		}
		if len(root.Content) > 0 && top != "" {
			k := root.Content[0]
			if k.HeadComment != "" {
				k.HeadComment = top + "\n" + k.HeadComment
			} else {
				k.HeadComment = top
			}
		}
	}
}

func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// reorder sorts a mapping's pairs stably: keys of order first, in that order,
// then the others as written, then last (when not "") at the very end.
func reorder(m *yaml.Node, order []string, last string) {
	rank := make(map[string]int, len(order)+1)
	for i, k := range order {
		rank[k] = i
	}
	if last != "" {
		rank[last] = len(order) + 1
	}
	type pair struct {
		k, v *yaml.Node
		r    int
	}
	ps := make([]pair, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		r, ok := rank[m.Content[i].Value]
		if !ok || m.Content[i].Kind != yaml.ScalarNode {
			r = len(order)
		}
		ps = append(ps, pair{m.Content[i], m.Content[i+1], r})
	}
	// yaml.v3 hangs a comment that follows a mapping on its last key: it stays
	// at the end of the mapping, whichever key ends up last.
	foot := ""
	if n := len(ps); n > 0 {
		foot, ps[n-1].k.FootComment = ps[n-1].k.FootComment, ""
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].r < ps[j].r })
	if n := len(ps); n > 0 && foot != "" {
		if k := ps[n-1].k; k.FootComment != "" {
			k.FootComment += "\n" + foot
		} else {
			k.FootComment = foot
		}
	}
	for i, p := range ps {
		m.Content[2*i], m.Content[2*i+1] = p.k, p.v
	}
}

// styleTree sets the YAML styles fmt imposes: multi-line strings as literal
// block scalars, short scalar keyword lists in flow style, long ones as blocks.
// Everything else keeps the style it was written in. The choice depends only on
// the values, so formatting formatted text changes nothing.
func styleTree(n *yaml.Node, key string) { styleNode(n, key, false) }

func styleNode(n *yaml.Node, key string, inFlow bool) {
	switch n.Kind {
	case yaml.ScalarNode:
		switch {
		case n.ShortTag() == "!!str" && strings.Contains(n.Value, "\n"):
			n.Style = blockStyle(n.Value)
		case n.ShortTag() == "!!null" && n.Value == "" && inFlow:
			// "{a, b: c}" has a null a; written back as "{a: , b: c}" it
			// would read as an empty string.
			n.Value = "null"
		}
	case yaml.SequenceNode:
		if flowLists[key] {
			if flowable(n) {
				n.Style = yaml.FlowStyle
			} else {
				n.Style = 0
			}
		}
		inFlow = inFlow || n.Style&yaml.FlowStyle != 0
		for _, c := range n.Content {
			styleNode(c, "", inFlow)
		}
	case yaml.MappingNode:
		inFlow = inFlow || n.Style&yaml.FlowStyle != 0
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			styleNode(k, "", inFlow)
			styleNode(v, k.Value, inFlow)
			// "keywords: # note" above a block list hangs the comment on the
			// key; yaml.v3 writes a key's line comment after a flow value's
			// next line. On the value it stays on the key's line.
			// Read back, the comment is the flow value's; a block value's line
			// comment goes back on the key, where yaml.v3 writes it in place.
			if v.Kind == yaml.SequenceNode || v.Kind == yaml.MappingNode {
				flow := v.Style&yaml.FlowStyle != 0
				switch {
				case flow && k.LineComment != "" && v.LineComment == "":
					v.LineComment, k.LineComment = k.LineComment, ""
				case !flow && v.LineComment != "" && k.LineComment == "":
					k.LineComment, v.LineComment = v.LineComment, ""
				}
			}
		}
	}
}

func flowable(seq *yaml.Node) bool {
	if seq.HeadComment != "" || seq.FootComment != "" {
		return false
	}
	width := 0
	for _, c := range seq.Content {
		if c.Kind != yaml.ScalarNode || strings.Contains(c.Value, "\n") ||
			c.HeadComment != "" || c.LineComment != "" || c.FootComment != "" ||
			c.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return false
		}
		width += len(c.Value) + 2
	}
	return width <= flowWidth
}
