package formats

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// maxTextChunk caps one tEXt chunk. Real cards hold a few hundred KB of base64
// JSON (the corpus's largest is 180 KB); a chunk claiming more is corrupt or
// hostile, and reading it would mean trusting a length field we cannot check.
const maxTextChunk = 16 << 20

// pngText holds the card-bearing tEXt chunks of a PNG.
type pngText struct {
	chara, ccv3       string
	charaOff, ccv3Off int // byte offset of each chunk, for error positions
}

// PNGError is a PNG that cannot be read as a character card.
type PNGError struct {
	Offset int
	Msg    string
}

func (e *PNGError) Error() string { return fmt.Sprintf("PNG byte %d: %s", e.Offset, e.Msg) }

// pngChunk is one chunk of a PNG: where it starts (its length field), its
// type, its data, and its bytes as they are in the file (length, type, data
// and CRC).
type pngChunk struct {
	off  int
	typ  string
	body []byte
	raw  []byte
}

// crcOK says whether the chunk's CRC is the one its type and data give.
func (c pngChunk) crcOK() bool {
	h := crc32.NewIEEE()
	h.Write(c.raw[4 : 8+len(c.body)])
	return h.Sum32() == binary.BigEndian.Uint32(c.raw[8+len(c.body):])
}

// walkPNG calls fn for every chunk of a PNG, up to and including IEND, and
// returns the offset after IEND. It checks the signature and every length
// against the file, so fn only sees chunks that are all there; a tEXt chunk
// over maxTextChunk is refused before fn sees it. The reader and the writer
// of card PNGs share it.
func walkPNG(data []byte, fn func(pngChunk) error) (int, error) {
	if len(data) < len(pngSignature) && bytes.HasPrefix(pngSignature, data) {
		return 0, &PNGError{len(data), "the file ends inside the PNG signature: a truncated or unreadable PNG"}
	}
	if !bytes.HasPrefix(data, pngSignature) {
		return 0, &PNGError{0, "not a PNG file (bad signature)"}
	}
	i := len(pngSignature)
	for {
		if i == len(data) {
			return 0, &PNGError{i, "file ends without an IEND chunk (truncated?)"}
		}
		if len(data)-i < 12 {
			return 0, &PNGError{i, "truncated chunk header"}
		}
		n := binary.BigEndian.Uint32(data[i:])
		typ := data[i+4 : i+8]
		if n > 1<<31-1 || int64(n) > int64(len(data)-i-12) {
			return 0, &PNGError{i, fmt.Sprintf("chunk %q claims %d bytes but only %d remain (truncated or corrupt)", printable(typ), n, len(data)-i-12)}
		}
		if string(typ) == "tEXt" && n > maxTextChunk {
			return 0, &PNGError{i, fmt.Sprintf("tEXt chunk of %d bytes exceeds the %d-byte limit", n, maxTextChunk)}
		}
		c := pngChunk{off: i, typ: string(typ), body: data[i+8 : i+8+int(n)], raw: data[i : i+12+int(n)]}
		if err := fn(c); err != nil {
			return 0, err
		}
		i += 12 + int(n)
		if c.typ == "IEND" {
			return i, nil
		}
	}
}

// readPNGText walks the chunks of a PNG and returns its "chara" and "ccv3"
// tEXt chunks. It checks every length against the file and the cap, and the
// CRC of every tEXt chunk, so a corrupt file fails with the offset of the bad
// chunk rather than a garbled card.
func readPNGText(data []byte) (pngText, error) {
	var out pngText
	_, err := walkPNG(data, func(c pngChunk) error {
		if c.typ != "tEXt" {
			return nil
		}
		if !c.crcOK() {
			return &PNGError{c.off, "tEXt chunk fails its CRC check (corrupt file)"}
		}
		if kw, text, ok := bytes.Cut(c.body, []byte{0}); ok {
			switch string(kw) {
			case "chara":
				out.chara, out.charaOff = string(text), c.off
			case "ccv3":
				out.ccv3, out.ccv3Off = string(text), c.off
			}
		}
		return nil
	})
	return out, err
}

func printable(b []byte) string {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return fmt.Sprintf("%x", b)
		}
	}
	return string(b)
}

// cardJSONFromPNG returns the card JSON embedded in a PNG: the ccv3 chunk when
// present (the V3 spec says it wins), else chara.
func cardJSONFromPNG(data []byte) ([]byte, string, error) {
	t, err := readPNGText(data)
	if err != nil {
		return nil, "", err
	}
	text, chunk, off := t.ccv3, "ccv3", t.ccv3Off
	if text == "" {
		text, chunk, off = t.chara, "chara", t.charaOff
	}
	if text == "" {
		return nil, "", &PNGError{0, "PNG has no character card (no 'ccv3' or 'chara' tEXt chunk)"}
	}
	dec, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		// Some writers drop the padding.
		var err2 error
		if dec, err2 = base64.RawStdEncoding.DecodeString(text); err2 != nil {
			return nil, "", &PNGError{off, fmt.Sprintf("'%s' chunk is not valid base64: %v", chunk, err)}
		}
	}
	if len(dec) == 0 {
		return nil, "", &PNGError{off, fmt.Sprintf("'%s' chunk is empty", chunk)}
	}
	return dec, chunk, nil
}
