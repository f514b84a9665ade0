package formats

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/lorekit/lore/schema"
)

// A card is shared as a PNG: an image whose tEXt chunks hold the card,
// base64 of its JSON. A V2 card writes "chara"; a V3 card writes "ccv3" and
// also "chara" with the V2 card, for readers that know only V2 (as
// SillyTavern and character-foundry do). The image is kept as it is: every
// chunk but the old card chunks, byte for byte, so its pixels (IDAT) and
// everything else an editor wrote stay; the card chunks go just before IEND.

// DefaultCardImage is the image of a card exported to PNG without one: a
// plain 400×600 (the usual 2:3 portrait of cards) in a neutral grey.
//
//go:embed default_card.png
var DefaultCardImage []byte

// cardChunks are the chunk types that can hold a card's text.
var cardChunks = map[string]bool{"tEXt": true, "iTXt": true, "zTXt": true}

// isCardChunk says whether c holds a card: a text chunk keyed chara or ccv3
// (of any case: readers differ).
func isCardChunk(c pngChunk) bool {
	if !cardChunks[c.typ] {
		return false
	}
	kw, _, _ := bytes.Cut(c.body, []byte{0})
	switch string(bytes.ToLower(kw)) {
	case "chara", "ccv3":
		return true
	}
	return false
}

// checkImage walks an image that will carry a card and returns its chunks:
// a PNG whose every chunk is whole and passes its CRC, IHDR first, IEND
// last. A card written into a corrupt image would be a corrupt card.
// Whatever follows IEND is not part of the image and is left out.
func checkImage(img []byte) ([]pngChunk, error) {
	var chunks []pngChunk
	_, err := walkPNG(img, func(c pngChunk) error {
		if len(chunks) == 0 && (c.typ != "IHDR" || len(c.body) != 13) {
			return &PNGError{c.off, fmt.Sprintf("the first chunk is %q, not the 13-byte IHDR a PNG starts with", printable([]byte(c.typ)))}
		}
		if !c.crcOK() {
			return &PNGError{c.off, fmt.Sprintf("chunk %q fails its CRC check (corrupt file)", printable([]byte(c.typ)))}
		}
		chunks = append(chunks, c)
		return nil
	})
	return chunks, err
}

// textChunk is a tEXt chunk keyword: text.
func textChunk(keyword string, text []byte) []byte {
	body := make([]byte, 0, len(keyword)+1+len(text))
	return chunkBytes("tEXt", append(append(append(body, keyword...), 0), text...))
}

// chunkBytes is a chunk of type typ holding body: length, type, body, CRC.
func chunkBytes(typ string, body []byte) []byte {
	out := make([]byte, 8, 12+len(body))
	binary.BigEndian.PutUint32(out, uint32(len(body)))
	copy(out[4:], typ)
	out = append(out, body...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[4:]))
}

// embedCard writes img with the card chunks given (keyword, card JSON, in
// order) in place of any it had.
func embedCard(img []byte, cards ...[2][]byte) ([]byte, error) {
	chunks, err := checkImage(img)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(img) + 2*len(cards[0][1]))
	b.Write(pngSignature)
	for _, c := range chunks {
		if c.typ == "IEND" {
			for _, card := range cards {
				text := base64.StdEncoding.EncodeToString(card[1])
				if len(text)+len(card[0])+1 > maxTextChunk {
					return nil, fmt.Errorf("the card is %d bytes as base64, over the %d bytes of a tEXt chunk lore reads back", len(text), maxTextChunk)
				}
				b.Write(textChunk(string(card[0]), []byte(text)))
			}
		}
		if !isCardChunk(c) {
			b.Write(c.raw)
		}
	}
	return b.Bytes(), nil
}

// PlainImage is img without its card chunks: the picture of a card, which a
// folder import keeps beside the manifest for export to write the card into
// again (a copy with the old chunks would be a second, stale card).
func PlainImage(img []byte) ([]byte, error) {
	chunks, err := checkImage(img)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(pngSignature)
	for _, c := range chunks {
		if !isCardChunk(c) {
			b.Write(c.raw)
		}
	}
	return b.Bytes(), nil
}

// ExportPNG writes lb as a card (target card-v2 or card-v3) in the image
// img: a V2 card in "chara"; a V3 card in "ccv3", with the V2 card in
// "chara" for older readers. The loss report is Export's for the target.
func ExportPNG(lb *schema.Lorebook, target string, img []byte) ([]byte, *LossReport, error) {
	if target != FormatCardV2 && target != FormatCardV3 {
		return nil, nil, fmt.Errorf("a PNG holds a character card: --to card-v2 or card-v3, not %s", target)
	}
	card, report, err := Export(lb, target, nil)
	if err != nil {
		return nil, nil, err
	}
	chunks := [][2][]byte{{[]byte("chara"), card}}
	if target == FormatCardV3 {
		chunks = [][2][]byte{{[]byte("chara"), exportCard(lb, FormatCardV2)}, {[]byte("ccv3"), card}}
	}
	data, err := embedCard(img, chunks...)
	if err != nil {
		return nil, nil, err
	}
	return data, report, nil
}

// IsPNG says whether data starts with the PNG signature.
func IsPNG(data []byte) bool { return bytes.HasPrefix(data, pngSignature) }

// PNGImageKey is the manifest field, under extensions.<card format>, that
// names the card's image in a folder lorebook imported from a PNG card (a
// file beside the manifest): lore's note, not a card field, so export does
// not write it into the card.
const PNGImageKey = "pngImage"

// CardImageName is the file a folder import writes the card's image to.
const CardImageName = "card.png"

// ImageRef is the image a lorebook names for its card (PNGImageKey under
// the manifest's extensions), "" when none.
func ImageRef(lb *schema.Lorebook) string {
	s, _ := cardKept(&lb.Manifest)[PNGImageKey].(string)
	return s
}
