package formats

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// Open loads the lorebook at path, whatever its format: a folder or a lore
// YAML/JSON file goes to schema.Load; a foreign file (detected by content,
// never by name) is converted in memory. The error, when not nil, is a
// *schema.ParseError naming the file and, when known, the line and column.
func Open(path string) (*schema.Lorebook, []diag.Diagnostic, error) {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return schema.Load(path)
	}
	src, err := ReadSource(path)
	if err != nil {
		return nil, nil, err
	}
	return src.Open()
}

// Source is one file read once, and parsed once when it is text, for a
// command that must find out what the file is before loading it: kind
// detection, the foreign-format check and the load all use what Source holds.
type Source struct {
	Path string
	// DocErr says why the text does not parse (Doc is nil then).
	DocErr error
	doc    *schema.Doc
	// text is the checked text of a foreign file read by scanJSON, parsed
	// into doc only if a command asks for Doc.
	text   []byte
	binary []byte // the bytes of a PNG card or a CharX archive
	// det is the foreign-format check, done at most once (Foreign asks
	// before Open converts).
	det *detection
}

// detection is the parsed text converted down to an entry's keys (or all of
// it: whole), the converter that goes on from there, and the foreign format
// it names ("" for lore's own).
type detection struct {
	c      *converter
	root   *jnode
	whole  bool
	format string
}

// Doc is the parsed text; nil for a card in a PNG or a CharX archive
// (binary) and for text that does not parse (then DocErr says why).
func (s *Source) Doc() *schema.Doc {
	if s.doc == nil && s.text != nil {
		s.doc, s.DocErr = schema.ParseDoc(s.Path, s.text)
		s.text = nil
	}
	return s.doc
}

// Parsed says whether the source is text that parses, without parsing
// what scanJSON already read.
func (s *Source) Parsed() bool { return s.doc != nil || s.text != nil }

// ReadSource reads the file at path (not a folder) with schema's limits. The
// error is for a file that cannot be read at all; text that does not parse is
// a Source with DocErr, reported by Open as the load error.
func ReadSource(path string) (*Source, error) {
	data, err := schema.ReadBytes(path)
	if err != nil {
		return nil, err
	}
	return SourceFrom(path, data), nil
}

// SourceFrom is ReadSource for data read by other means (standard input),
// called path in positions and for format detection.
func SourceFrom(path string, data []byte) *Source {
	src := &Source{Path: path}
	if looksPNG(data) || isCharX(data) {
		src.binary = data
		return src
	}
	if text, ok := foreignText(path, data); ok {
		if root, ok := scanJSON(text); ok {
			if f := detect(root); f != "" {
				src.text = text
				src.det = &detection{root: root, whole: true, format: f}
				return src
			}
		}
	}
	src.doc, src.DocErr = schema.ParseDoc(path, data)
	return src
}

// foreignText is data as schema.ParseDoc would read it (without a byte order
// mark), when it is JSON text (by schema.IsJSON, ParseDoc's rule) that is
// almost surely a foreign lorebook: its first 64 KB name a SillyTavern
// book's entries object, a card's or a lorebook's spec, or a NovelAI
// version. Those are read by scanJSON straight into jnodes. A false yes only
// costs a second parse; a false no only the yaml.Node tree.
func foreignText(path string, data []byte) ([]byte, bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' || !foreignHead(data[:min(len(data), 64<<10)]) {
		return nil, false
	}
	return jsonText(path, data)
}

// jsonText is data as schema.ParseDoc would read it (without a byte order
// mark) when ParseDoc would read it as JSON and has nothing to say of the
// bytes themselves (a NUL, bad UTF-8): what scanJSON may read instead.
func jsonText(path string, data []byte) ([]byte, bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !startsJSON(data) || !schema.IsJSON(path, data) || bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, false
	}
	return data, true
}

// foreignHead says whether head names what foreignText looks for: a key
// "entries" whose value is an object, "spec" whose value starts with
// chara_card_v or lorebook_v, or "lorebookVersion". A search per key, not a
// regular expression: it runs on every JSON file lore reads.
func foreignHead(head []byte) bool {
	return keyThen(head, `"entries"`, "{") || keyThen(head, `"spec"`, `"chara_card_v`) ||
		keyThen(head, `"spec"`, `"lorebook_v`) || keyThen(head, `"lorebookVersion"`, "")
}

// keyThen says whether key occurs in head followed, after white space, a
// colon and white space, by value.
func keyThen(head []byte, key, value string) bool {
	for rest := head; ; {
		i := bytes.Index(rest, []byte(key))
		if i < 0 {
			return false
		}
		rest = rest[i+len(key):]
		after := bytes.TrimLeft(rest, " \t\r\n")
		if len(after) > 0 && after[0] == ':' && bytes.HasPrefix(bytes.TrimLeft(after[1:], " \t\r\n"), []byte(value)) {
			return true
		}
	}
}

// Kind says what the file is: a PNG card, a foreign lorebook and text that
// does not parse are lorebooks (Open reports the last).
func (s *Source) Kind() schema.Kind {
	switch {
	case s.doc != nil:
		return s.doc.Kind()
	case s.text != nil:
		return schema.KindOfKeys(s.Path, s.det.root.shape.raw)
	}
	return schema.KindLorebook
}

// Open loads the source as a lorebook: a PNG card or a foreign format is
// converted, lore's own format goes to schema.LoadDoc.
func (s *Source) Open() (*schema.Lorebook, []diag.Diagnostic, error) {
	switch {
	case s.binary != nil:
		return Convert(s.Path, s.binary)
	case s.DocErr != nil:
		return nil, nil, s.DocErr
	}
	if d := s.detect(); d.whole {
		return importTree(s.Path, d.root, d.format)
	} else if d.format != "" {
		return importTree(s.Path, d.c.complete(d.root, s.doc.Root, 0), d.format)
	}
	return schema.LoadDoc(s.doc)
}

// detect converts the parsed text down to an entry's keys and names its
// foreign format, "" for lore's own, once. Foreign formats are all JSON.
func (s *Source) detect() *detection {
	if s.det != nil {
		return s.det
	}
	s.det = &detection{c: &converter{}}
	if s.doc != nil && startsJSON(s.doc.Data) {
		s.det.root, s.det.format = detectTree(s.det.c, s.doc.Root)
	}
	return s.det
}

// Foreign says whether the source is a foreign lorebook (in a format other
// than lore's own); a PNG card or a CharX archive always is.
func (s *Source) Foreign() bool {
	if s.binary != nil {
		return true
	}
	return s.detect().format != ""
}

// IsCard says whether the source is a PNG holding a character card chunk
// (another PNG is an image, not lore data).
func (s *Source) IsCard() bool {
	return looksPNG(s.binary) && (bytes.Contains(s.binary, []byte("tEXtchara\x00")) || bytes.Contains(s.binary, []byte("tEXtccv3\x00")))
}

// ErrNative is returned by Convert for input that is not a foreign format:
// lore's own YAML or JSON, for schema.Load.
var ErrNative = errors.New("lore's own format")

// looksPNG says whether data is a PNG, or the start of one cut short (so a
// truncated card is called a truncated PNG, not invalid UTF-8: the
// signature's first byte, 0x89, cannot start UTF-8 text).
func looksPNG(data []byte) bool {
	if len(data) >= len(pngSignature) {
		return bytes.HasPrefix(data, pngSignature)
	}
	return len(data) > 0 && bytes.HasPrefix(pngSignature, data)
}

// Convert detects the format of data (the content of path) and converts it.
// It returns ErrNative when data is not a foreign format.
func Convert(path string, data []byte) (*schema.Lorebook, []diag.Diagnostic, error) {
	if isCharX(data) {
		return convertCharX(path, data)
	}
	if looksPNG(data) {
		card, chunk, err := cardJSONFromPNG(data)
		if err != nil {
			return nil, nil, &schema.ParseError{Pos: diag.Pos{File: path}, Msg: err.Error()}
		}
		// Positions inside the embedded JSON mean nothing to someone looking
		// at a PNG: report them as "<file>[chunk]".
		file := path + "[" + chunk + "]"
		card = bytes.TrimPrefix(card, []byte("\xef\xbb\xbf"))
		if !startsJSON(card) {
			// schema.ParseBytes would read other text as YAML: a card is JSON.
			return nil, nil, &schema.ParseError{Pos: diag.Pos{File: file, Line: 1, Col: 1},
				Msg: fmt.Sprintf("invalid JSON: the '%s' chunk does not hold a JSON object (a character card)", chunk)}
		}
		lb, ds, err := convertJSON(file, card, true)
		if lb != nil {
			lb.Path = path
			lb.Files = []string{path}
		}
		return lb, ds, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !startsJSON(data) {
		return nil, nil, ErrNative // YAML, or empty: schema.Load says what is wrong
	}
	return convertJSON(path, data, false)
}

// startsJSON says whether data's first non-space byte opens a JSON object or
// array: foreign formats are all JSON, and schema.ParseBytes, given a name
// without .json, parses data as JSON exactly then.
func startsJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

func convertJSON(file string, data []byte, fromPNG bool) (*schema.Lorebook, []diag.Diagnostic, error) {
	// format is the detected format f of top, or Card V2 for a V1 card in
	// a PNG (its fields at the top level).
	format := func(top *jnode, f string) string {
		if f == "" && fromPNG && top.kind == jObj {
			f = FormatCardV2
		}
		return f
	}
	if text, ok := jsonText(file, data); ok {
		if root, ok := scanJSON(text); ok {
			if f := format(root, detect(root)); f != "" {
				return importTree(file, root, f)
			}
			return nil, nil, ErrNative
		}
	}
	root, err := schema.ParseBytes(file, data)
	if err != nil {
		return nil, nil, err
	}
	c := &converter{}
	top, f := detectTree(c, root)
	f = format(top, f)
	if f == "" {
		return nil, nil, ErrNative
	}
	return importTree(file, c.complete(top, root, 0), f)
}

// importTree imports the converted tree of a foreign file whose format is known.
func importTree(file string, root *jnode, format string) (*schema.Lorebook, []diag.Diagnostic, error) {
	im := newImporter(file, format)
	switch format {
	case FormatSillyTavern:
		im.importSillyTavern(root)
	case FormatCardV2, FormatCardV3:
		im.importCard(root)
	case FormatLorebookV3:
		im.importLorebookV3(root)
	case FormatNovelAI:
		im.importNovelAI(root)
	case FormatAgnai:
		im.importAgnai(root)
	case FormatRisu:
		im.importRisu(root)
	case FormatAIDungeon:
		items := root
		if root.kind == jObj {
			items = root.get("storyCards")
		}
		im.importAIDungeon(items, aidKind(items))
	}
	im.finish()
	for _, e := range im.lb.Entries {
		if e.Name == "" {
			e.Name = e.ID // as schema.Load does
		}
	}
	if im.lb.Manifest.Name == "" {
		base := filepath.Base(file)
		if i := strings.IndexByte(base, '['); i > 0 {
			base = base[:i]
		}
		im.lb.Manifest.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	return im.lb, diag.Sort(im.diags), nil
}

// detect names root's foreign format, or "" for lore's own.
func detect(root *jnode) string {
	switch root.kind {
	case jArr:
		if aidKind(root) != "" {
			return FormatAIDungeon
		}
		return ""
	case jObj:
	default:
		return ""
	}
	if f := cardSpec(root); f != "" {
		return f
	}
	switch {
	case isRisu(root):
		return FormatRisu
	case isAgnai(root):
		return FormatAgnai
	case isNovelAI(root):
		return FormatNovelAI
	case isSillyTavern(root):
		return FormatSillyTavern
	case aidKind(root.get("storyCards")) != "":
		return FormatAIDungeon
	case root.has("first_mes") && root.has("mes_example") && root.has("name"):
		return FormatCardV2 // a V1 card saved as JSON
	}
	return ""
}

// detectTree converts y as deep as detect looks and detects its format. Most
// formats show at the second level (root → a key's value), so the tree is
// cut there first: lore's own JSON, thousands of entries in an array, then
// costs its root. Only a tree whose format shows deeper is converted again to
// detectDepth: a root array (AI Dungeon's items' keys), an entries object
// (SillyTavern's entries' keys) or a storyCards array. Nothing else in
// detect looks below the second level.
func detectTree(c *converter, y *yaml.Node) (*jnode, string) {
	root := c.convert(y, 0, detectDepth-1)
	if root.kind == jArr || root.get("entries").is(jObj) || root.get("storyCards").is(jArr) {
		root = c.convert(y, 0, detectDepth)
	}
	return root, detect(root)
}

// OpenWith is Open for a file whose bytes were read by other means (an
// editor's unsaved buffer), whatever its format; path names it in positions.
func OpenWith(path string, data []byte) (*schema.Lorebook, []diag.Diagnostic, error) {
	return SourceFrom(path, data).Open()
}
