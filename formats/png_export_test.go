package formats

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lorekit/lore/internal/testcorpus"
	"github.com/lorekit/lore/schema"
)

// chunksOf lists a PNG's chunks (type and raw bytes) in order.
func chunksOf(t testing.TB, data []byte) []pngChunk {
	t.Helper()
	var out []pngChunk
	if _, err := walkPNG(data, func(c pngChunk) error { out = append(out, c); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// imageChunks are the raw chunks of a PNG other than its card chunks.
func imageChunks(t testing.TB, data []byte) [][]byte {
	var out [][]byte
	for _, c := range chunksOf(t, data) {
		if !isCardChunk(c) {
			out = append(out, c.raw)
		}
	}
	return out
}

// cardTexts are the card chunks of a PNG: keyword → decoded JSON.
func cardTexts(t testing.TB, data []byte) map[string][]byte {
	out := map[string][]byte{}
	for _, c := range chunksOf(t, data) {
		if isCardChunk(c) {
			kw, text, _ := bytes.Cut(c.body, []byte{0})
			if _, dup := out[string(kw)]; dup {
				t.Errorf("two %s chunks", kw)
			}
			dec, err := base64.StdEncoding.DecodeString(string(text))
			if err != nil {
				t.Fatalf("%s: %v", kw, err)
			}
			out[string(kw)] = dec
		}
	}
	return out
}

func decodePixels(t testing.TB, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestPNGExportRoundTrip: every card of the fixtures and the corpus, and a
// book exported into lore's default image and into another picture, written
// as a PNG card (V2 and V3) and imported again, is the book the JSON export
// gives; the picture decodes to the same pixels, its IDAT and every other
// chunk are the same bytes, and the card chunks are the ones the target
// writes, once each.
func TestPNGExportRoundTrip(t *testing.T) {
	files := []string{filepath.Join(fixtureDir, "card_v3_both_chunks.png"), filepath.Join(fixtureDir, "card_v3_decorators.json"), "../fixtures/eldoria/book"}
	if testcorpus.Find(t) != "" {
		cards, _ := filepath.Glob(filepath.Join(testcorpus.Dir(t), "cards", "*.png"))
		files = append(files, cards...)
	}
	seraphina, _ := os.ReadFile(filepath.Join(fixtureDir, "card_v3_both_chunks.png"))
	for _, f := range files {
		lb, _, err := Open(f)
		if err != nil {
			t.Fatal(err)
		}
		images := map[string][]byte{"default": DefaultCardImage, "other": seraphina}
		if own, err := os.ReadFile(f); err == nil && IsPNG(own) {
			images["own"] = own
		}
		for name, img := range images {
			for _, target := range []string{FormatCardV2, FormatCardV3} {
				t.Run(filepath.Base(f)+"/"+name+"/"+target, func(t *testing.T) {
					out, report, err := ExportPNG(lb, target, img)
					if err != nil {
						t.Fatal(err)
					}
					jsonCard, jsonReport, _ := Export(lb, target, nil)
					if !reflect.DeepEqual(report, jsonReport) {
						t.Errorf("the PNG's loss report differs from the JSON export's")
					}
					fromPNG, _, err := Convert("card.png", out)
					if err != nil {
						t.Fatal(err)
					}
					fromJSON, _, err := Convert("card.json", jsonCard)
					if err != nil {
						t.Fatal(err)
					}
					fromPNG.Path, fromPNG.Files = fromJSON.Path, fromJSON.Files
					if a, b := modelOf(fromPNG), modelOf(fromJSON); !reflect.DeepEqual(a, b) {
						t.Errorf("the PNG card reads back otherwise than the JSON card: %s", firstDiff(fmtModel(b), fmtModel(a)))
					}
					if !reflect.DeepEqual(imageChunks(t, out), imageChunks(t, img)) {
						t.Error("the image's chunks changed")
					}
					if a, b := decodePixels(t, out), decodePixels(t, img); !reflect.DeepEqual(a, b) {
						t.Error("the pixels changed")
					}
					texts := cardTexts(t, out)
					if !bytes.Equal(texts["chara"], exportCard(lb, FormatCardV2)) {
						t.Error("chara is not the V2 card")
					}
					if _, ok := texts["ccv3"]; ok != (target == FormatCardV3) {
						t.Errorf("ccv3 chunk: %v, for %s", ok, target)
					} else if ok && !bytes.Equal(texts["ccv3"], jsonCard) {
						t.Error("ccv3 is not the V3 card")
					}
					if len(texts) != map[string]int{FormatCardV2: 1, FormatCardV3: 2}[target] {
						t.Errorf("card chunks %v", keys(texts))
					}
				})
			}
		}
	}
}

func keys[V any](m map[string]V) []string { return sortedKeys(m) }

func fmtModel(v any) string { b, _ := json.MarshalIndent(v, "", " "); return string(b) }

// TestPNGReplacesCardChunks: old card chunks go, whatever their kind (tEXt,
// iTXt, zTXt) or case; other text chunks stay, in place.
func TestPNGReplacesCardChunks(t *testing.T) {
	itxt := func(kw, text string) []byte { // iTXt: keyword, flag, method, language, translated, text
		body := append([]byte(kw), 0, 0, 0, 0, 0)
		return chunkBytes("iTXt", append(body, text...))
	}
	chunks := chunksOf(t, DefaultCardImage)
	var img []byte
	img = append(img, pngSignature...)
	for _, c := range chunks {
		if c.typ == "IEND" {
			img = append(img, textChunk("Comment", []byte("drawn by hand"))...)
			img = append(img, itxt("chara", "stale")...)
			img = append(img, textChunk("CCV3", []byte("stale"))...)
			img = append(img, chunkBytes("zTXt", []byte("chara\x00\x00x"))...)
		}
		img = append(img, c.raw...)
	}
	lb := loadLore(t, `{"name": "Coast", "entries": [{"id": "lamp", "section": "chat-history", "keywords": ["lamp"], "content": "Lamp."}]}`)
	out, _, err := ExportPNG(lb, FormatCardV3, img)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, c := range chunksOf(t, out) {
		kw, _, _ := bytes.Cut(c.body, []byte{0})
		types = append(types, c.typ+":"+string(kw))
	}
	want := []string{"IHDR:", "IDAT:", "tEXt:Comment", "tEXt:chara", "tEXt:ccv3", "IEND:"}
	got := append([]string{}, types...)
	got[0], got[1] = "IHDR:", "IDAT:" // their data is not text
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chunks %v, want %v", types, want)
	}
}

// TestPNGRefusesBadImages: an image that is not a whole, sound PNG is
// refused with the byte where it breaks; nothing is written into it.
func TestPNGRefusesBadImages(t *testing.T) {
	lb := loadLore(t, `{"name": "C", "entries": [{"id": "a", "section": "chat-history", "keywords": ["a"], "content": "A."}]}`)
	good := DefaultCardImage
	badCRC := append([]byte{}, good...)
	badCRC[len(pngSignature)+20] ^= 0xff // IHDR's CRC
	noIHDR := append(append([]byte{}, pngSignature...), good[len(pngSignature)+25:]...)
	for name, img := range map[string][]byte{
		"jpeg":       []byte("\xff\xd8\xff\xe0JFIF"),
		"empty":      nil,
		"truncated":  good[:len(good)-5],
		"bad CRC":    badCRC,
		"no IHDR":    noIHDR,
		"no IEND":    good[:len(good)-12],
		"huge chunk": append(append([]byte{}, pngSignature...), 0x7f, 0xff, 0xff, 0xff, 'I', 'D', 'A', 'T'),
	} {
		if _, _, err := ExportPNG(lb, FormatCardV2, img); err == nil {
			t.Errorf("%s: accepted", name)
		} else if _, ok := err.(*PNGError); !ok {
			t.Errorf("%s: %v is not a PNGError", name, err)
		}
	}
	if _, _, err := ExportPNG(lb, FormatSillyTavern, good); err == nil {
		t.Error("a SillyTavern book written into a PNG")
	}
}

// FuzzCardPNG: any bytes given as the picture either are refused or come
// back with the card in them, readable by the importer, every other chunk
// kept.
func FuzzCardPNG(f *testing.F) {
	f.Add(DefaultCardImage)
	for _, p := range []string{"card_v3_both_chunks.png", "card_bad_crc.png", "card_oversized_chunk.png", "card_truncated.png", "card_no_chara.png"} {
		if b, err := os.ReadFile(filepath.Join(fixtureDir, p)); err == nil {
			f.Add(b)
		}
	}
	lb := &schema.Lorebook{Format: "lore", Manifest: schema.Manifest{Name: "Fuzz", Settings: schema.DefaultSettings()},
		Entries: []*schema.Entry{{ID: "a", Name: "a", Section: schema.SectionChatHistory, Content: "A.", Enabled: true,
			Keywords: []schema.Keyword{{Text: "a"}}, Fields: map[string]schema.Pos{}}}}
	f.Fuzz(func(t *testing.T, img []byte) {
		out, _, err := ExportPNG(lb, FormatCardV3, img)
		if err != nil {
			return
		}
		back, _, err := Convert("fuzz.png", out)
		if err != nil || len(back.Entries) != 1 || back.Entries[0].Content != "A." {
			t.Fatalf("the card does not read back: %v", err)
		}
		if !reflect.DeepEqual(imageChunks(t, out), imageChunks(t, img)) {
			t.Fatal("the image's chunks changed")
		}
	})
}
