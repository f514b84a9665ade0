package formats

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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
	data, err := readLimited(path, st.Size())
	if err != nil {
		return nil, nil, err
	}
	lb, ds, err := Convert(path, data)
	if errors.Is(err, ErrNative) {
		return schema.Load(path)
	}
	return lb, ds, err
}

// ErrNative is returned by Convert for input that is not a foreign format:
// lore's own YAML or JSON, for schema.Load.
var ErrNative = errors.New("lore's own format")

// readLimited reads a file with schema's size limit. schema.ReadFile refuses
// binary data, and a PNG card is binary, so formats reads for itself.
func readLimited(path string, size int64) ([]byte, error) {
	if size > schema.MaxFileSize {
		return nil, &schema.ParseError{Pos: diag.Pos{File: path}, Msg: fmt.Sprintf("file is %d bytes, over the %d-byte limit: is this the right file?", size, schema.MaxFileSize)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &schema.ParseError{Pos: diag.Pos{File: path}, Msg: err.Error()}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, schema.MaxFileSize+1))
	if err != nil {
		return nil, &schema.ParseError{Pos: diag.Pos{File: path}, Msg: err.Error()}
	}
	if len(data) > schema.MaxFileSize {
		return nil, &schema.ParseError{Pos: diag.Pos{File: path}, Msg: "file is over the size limit: is this the right file?"}
	}
	return data, nil
}

// Convert detects the format of data (the content of path) and converts it.
// It returns ErrNative when data is not a foreign format.
func Convert(path string, data []byte) (*schema.Lorebook, []diag.Diagnostic, error) {
	if isCharX(data) {
		return convertCharX(path, data)
	}
	if bytes.HasPrefix(data, pngSignature) {
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
	root, err := parseJSON(file, data)
	if err != nil {
		return nil, nil, err
	}
	format := detect(root)
	if format == "" && fromPNG && root.kind == jObj {
		format = FormatCardV2 // a V1 card: the fields at the top level
	}
	if format == "" {
		return nil, nil, ErrNative
	}
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
