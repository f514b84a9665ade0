package formats

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// A .charx is a zip archive: card.json (a Character Card V3) and the
// card's assets (images, sounds, a RisuAI module.risum). Nothing in it is
// inflated before the archive's own numbers are checked against these
// bounds, so a zip bomb, a path-traversal name or a flood of tiny files is
// refused at once, with a message that says which bound it broke.
const (
	// maxCharXFiles: real cards hold a few dozen assets; character-foundry
	// allows 10,000.
	maxCharXFiles = 10000
	// maxCharXTotal caps what the files inflate to, all together.
	maxCharXTotal = 256 << 20
	// MaxCharXTotal is maxCharXTotal for the assets export is given.
	MaxCharXTotal = maxCharXTotal
	// maxCharXRatio caps inflated size ÷ stored size, of the archive and of
	// each file over ratioFloor bytes: JSON compresses ten or twenty times,
	// images hardly at all; a bomb does a thousand times and more.
	maxCharXRatio = 100
	ratioFloor    = 1 << 20
)

var zipSignature = []byte("PK\x03\x04")

// isCharX says whether data is a zip archive (a .charx is detected by
// content like every format).
func isCharX(data []byte) bool { return bytes.HasPrefix(data, zipSignature) }

// CharXError is a .charx refused before or while reading it.
type CharXError struct{ Msg string }

func (e *CharXError) Error() string { return "charx: " + e.Msg }

// Asset is a file of a .charx other than card.json, by its path in the
// archive ("assets/icon/images/main.png", "module.risum").
type Asset struct {
	Path string
	Data []byte
}

// openCharX checks data against the bounds and returns its files.
func openCharX(data []byte) ([]*zip.File, error) {
	n, err := zipFileCount(data)
	if err != nil {
		return nil, err
	}
	if n > maxCharXFiles {
		return nil, &CharXError{fmt.Sprintf("the archive lists %d files, over the limit of %d: refused before reading any", n, maxCharXFiles)}
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, &CharXError{"not a readable zip archive: " + err.Error()}
	}
	var total uint64
	for _, f := range zr.File {
		if !safeZipName(f.Name) {
			return nil, &CharXError{fmt.Sprintf("file name %q points outside the archive: refused", f.Name)}
		}
		total += f.UncompressedSize64
		if total > maxCharXTotal {
			return nil, &CharXError{fmt.Sprintf("the files inflate to over %d bytes (%s alone claims %d): refused before inflating", maxCharXTotal, f.Name, f.UncompressedSize64)}
		}
		if f.UncompressedSize64 > ratioFloor && f.UncompressedSize64 > maxCharXRatio*max(f.CompressedSize64, 1) {
			return nil, &CharXError{fmt.Sprintf("%s inflates %d bytes to %d, over %d times: a zip bomb, refused before inflating", f.Name, f.CompressedSize64, f.UncompressedSize64, maxCharXRatio)}
		}
	}
	if total > ratioFloor && total > maxCharXRatio*uint64(len(data)) {
		return nil, &CharXError{fmt.Sprintf("the archive's %d bytes inflate to %d, over %d times: a zip bomb, refused before inflating", len(data), total, maxCharXRatio)}
	}
	return zr.File, nil
}

// zipFileCount reads the number of files from the end-of-central-directory
// record (zip64 when it says so), before anything parses the directory.
func zipFileCount(data []byte) (uint64, error) {
	const eocdLen = 22
	start := max(0, len(data)-eocdLen-0xffff)
	i := bytes.LastIndex(data[start:], []byte("PK\x05\x06"))
	if i < 0 || start+i+eocdLen > len(data) {
		return 0, &CharXError{"no end of central directory: the archive is truncated or not a zip"}
	}
	eocd := data[start+i:]
	n := uint64(binary.LittleEndian.Uint16(eocd[10:]))
	if n != 0xffff {
		return n, nil
	}
	// zip64: the locator sits just before the record and points at the
	// zip64 end record, whose count is 8 bytes.
	loc := start + i - 20
	if loc < 0 || !bytes.Equal(data[loc:loc+4], []byte("PK\x06\x07")) {
		return n, nil
	}
	off := binary.LittleEndian.Uint64(data[loc+8:])
	if len(data) < 56 || off > uint64(len(data)-56) || !bytes.Equal(data[off:off+4], []byte("PK\x06\x06")) {
		return 0, &CharXError{"broken zip64 end record"}
	}
	return binary.LittleEndian.Uint64(data[off+32:]), nil
}

// safeZipName refuses names that would land outside a folder the archive is
// unpacked into: absolute, with .. parts, backslashes or a drive letter.
func safeZipName(name string) bool {
	if name == "" || strings.ContainsAny(name, "\\\x00") || strings.HasPrefix(name, "/") ||
		len(name) > 1 && name[1] == ':' {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return false
		}
	}
	return true
}

// readZipFile inflates f, trusting no more than its declared size.
func readZipFile(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, &CharXError{f.Name + ": " + err.Error()}
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	if errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrChecksum) {
		// archive/zip stops a file that inflates past its declared size.
		return nil, &CharXError{fmt.Sprintf("%s does not inflate to the %d bytes it declares (a zip bomb, or a corrupt file): refused", f.Name, f.UncompressedSize64)}
	}
	if err != nil {
		return nil, &CharXError{f.Name + ": " + err.Error()}
	}
	if uint64(len(b)) != f.UncompressedSize64 {
		return nil, &CharXError{fmt.Sprintf("%s inflates to more than the %d bytes it declares: refused", f.Name, f.UncompressedSize64)}
	}
	return b, nil
}

// convertCharX reads a .charx: card.json as a card (positions shown as
// "<file>[card.json]"), the other files listed under the manifest's
// extensions.charx.files so the loss report can name them.
func convertCharX(file string, data []byte) (*schema.Lorebook, []diag.Diagnostic, error) {
	files, err := openCharX(data)
	if err != nil {
		return nil, nil, &schema.ParseError{Pos: diag.Pos{File: file}, Msg: err.Error()}
	}
	var card *zip.File
	var others []any
	for _, f := range files {
		switch {
		case f.Name == "card.json":
			card = f
		case !strings.HasSuffix(f.Name, "/"):
			others = append(others, map[string]any{"path": f.Name, "size": float64(f.UncompressedSize64)})
		}
	}
	if card == nil {
		return nil, nil, &schema.ParseError{Pos: diag.Pos{File: file}, Msg: "charx: no card.json in the archive"}
	}
	if card.UncompressedSize64 > schema.MaxFileSize {
		return nil, nil, &schema.ParseError{Pos: diag.Pos{File: file}, Msg: fmt.Sprintf("charx: card.json is %d bytes, over the %d-byte limit", card.UncompressedSize64, schema.MaxFileSize)}
	}
	js, err := readZipFile(card)
	if err != nil {
		return nil, nil, &schema.ParseError{Pos: diag.Pos{File: file}, Msg: err.Error()}
	}
	inner := file + "[card.json]"
	js = bytes.TrimPrefix(js, []byte("\xef\xbb\xbf"))
	lb, ds, err := convertJSON(inner, js, true)
	if errors.Is(err, ErrNative) {
		err = &schema.ParseError{Pos: diag.Pos{File: inner, Line: 1, Col: 1}, Msg: "card.json does not hold a character card"}
	}
	if err != nil {
		return nil, nil, err
	}
	lb.Path, lb.Files, lb.Format = file, []string{file}, FormatCharX
	if len(others) > 0 {
		if lb.Manifest.Extensions == nil {
			lb.Manifest.Extensions = map[string]any{}
		}
		lb.Manifest.Extensions[FormatCharX] = map[string]any{"files": others}
		ds = diag.Sort(append(ds, lossNotes(charxLosses(&lb.Manifest, file))...))
	}
	return lb, ds, nil
}

// CharXAssets reads the files of the .charx at path other than card.json,
// within the same bounds, for export --to charx to carry them over.
func CharXAssets(data []byte) ([]Asset, error) {
	files, err := openCharX(data)
	if err != nil {
		return nil, err
	}
	var out []Asset
	for _, f := range files {
		if f.Name == "card.json" || strings.HasSuffix(f.Name, "/") {
			continue
		}
		b, err := readZipFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, Asset{Path: f.Name, Data: b})
	}
	return out, nil
}

// charxTime is every file's modification time: an export is the same bytes
// every time.
var charxTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// exportCharX writes lb as a .charx: card.json (a V3 card, its assets
// listing every asset given) and the assets, sorted by path.
func exportCharX(lb *schema.Lorebook, assets []Asset) ([]byte, error) {
	sort.SliceStable(assets, func(i, j int) bool { return assets[i].Path < assets[j].Path })
	for i, a := range assets {
		if !safeZipName(a.Path) || a.Path == "card.json" {
			return nil, fmt.Errorf("asset path %q cannot go in a .charx", a.Path)
		}
		if i > 0 && assets[i-1].Path == a.Path {
			return nil, fmt.Errorf("two assets at %q", a.Path)
		}
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	put := func(name string, data []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: charxTime})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	if err := put("card.json", exportCardWithAssets(lb, assets)); err != nil {
		return nil, err
	}
	for _, a := range assets {
		if err := put(a.Path, a.Data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// exportCardWithAssets is the V3 card of a .charx: data.assets keeps the
// descriptors it came with whose files are given (or that point outside the
// archive), and describes each other asset given.
func exportCardWithAssets(lb *schema.Lorebook, assets []Asset) []byte {
	given := map[string]bool{}
	for _, a := range assets {
		given[a.Path] = true
	}
	kept, _ := cardKept(&lb.Manifest)["assets"].([]any)
	var descs []any
	described := map[string]bool{}
	for _, d := range kept {
		m, _ := d.(map[string]any)
		uri, _ := m["uri"].(string)
		if p, ok := strings.CutPrefix(uri, "embeded://"); ok {
			if !given[p] {
				continue // the loss report names it
			}
			described[p] = true
		}
		descs = append(descs, d)
	}
	for _, a := range assets {
		if described[a.Path] || a.Path == "module.risum" {
			continue
		}
		typ, name, ext := assetDescriptor(a.Path)
		descs = append(descs, map[string]any{"type": typ, "uri": "embeded://" + a.Path, "name": name, "ext": ext})
	}
	if descs == nil {
		descs = []any{map[string]any{"type": "icon", "uri": "ccdefault:", "name": "main", "ext": "png"}}
	}
	c := *lb
	c.Manifest.Extensions = map[string]any{}
	for k, v := range lb.Manifest.Extensions {
		c.Manifest.Extensions[k] = v
	}
	card := map[string]any{}
	for k, v := range cardKept(&lb.Manifest) {
		card[k] = v
	}
	card["assets"] = descs
	c.Manifest.Extensions[FormatCardV3] = card
	for _, f := range []string{FormatCardV2, FormatLorebookV3} {
		delete(c.Manifest.Extensions, f)
	}
	return exportCard(&c, FormatCardV3)
}

// assetDescriptor guesses a descriptor for an asset from its path
// "assets/<type>/<kind>/<name>.<ext>", as CharX writes them.
func assetDescriptor(p string) (typ, name, ext string) {
	base := path.Base(p)
	ext = strings.TrimPrefix(path.Ext(base), ".")
	name = strings.TrimSuffix(base, path.Ext(base))
	typ = "other"
	if parts := strings.Split(p, "/"); len(parts) >= 3 && parts[0] == "assets" {
		typ = parts[1]
	}
	return typ, name, ext
}

// AssetPath is where export --to charx puts a file given with --asset
// TYPE=FILE: assets/<type>/<images|audio|video|other>/<file name>.
func AssetPath(typ, file string) string {
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	kind := "other"
	switch strings.ToLower(strings.TrimPrefix(path.Ext(base), ".")) {
	case "png", "jpg", "jpeg", "webp", "gif", "avif", "bmp":
		kind = "images"
	case "mp3", "wav", "ogg", "flac", "m4a", "opus":
		kind = "audio"
	case "mp4", "webm", "mov", "mkv":
		kind = "video"
	}
	return "assets/" + typ + "/" + kind + "/" + base
}
