package bookgen

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
)

// cardPNG wraps card JSON in a 1×1 PNG as a base64 "chara" tEXt chunk, the
// way SillyTavern saves a character card.
func cardPNG(card []byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, body []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(body)))
		b.Write(n[:])
		h := crc32.NewIEEE()
		h.Write([]byte(typ))
		h.Write(body)
		b.WriteString(typ)
		b.Write(body)
		binary.BigEndian.PutUint32(n[:], h.Sum32())
		b.Write(n[:])
	}
	// 1×1, 8-bit greyscale; the image data is one filtered row, zlib-stored.
	chunk("IHDR", []byte{0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0})
	chunk("tEXt", append([]byte("chara\x00"), base64.StdEncoding.AppendEncode(nil, card)...))
	chunk("IDAT", []byte{0x78, 0x01, 0x01, 0x02, 0x00, 0xfd, 0xff, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01})
	chunk("IEND", nil)
	return b.Bytes()
}
