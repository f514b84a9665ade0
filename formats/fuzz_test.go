package formats

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func addSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{`{"entries":{"0":{"key":["a"]}}}`, `[{"keys":"a#[t=1]","entry":"x"}]`, `{"spec":"chara_card_v3","data":{}}`,
		`{"lorebookVersion":4,"entries":[{}]}`, `{"type":"risu","data":[{"key":1}]}`, `{"kind":"memory","entries":[null]}`, `[`, `{"a":`, `"\u12`, `{entries: {"0": &e {key: [a, *e], content: !!binary aGk=}}}`} {
		f.Add([]byte(s))
	}
}

// FuzzOpen (the byte-level core of Open): no input makes detection or
// conversion panic, whatever converts can be written, and every export of
// it imports again.
func FuzzOpen(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// A .yaml name makes schema parse text that starts with '{' as YAML
		// (flow style, anchors, tags): the converter must take that tree too.
		for _, name := range []string{"fuzz.json", "fuzz.yaml"} {
			lb, _, err := Convert(name, data)
			if err != nil || lb == nil {
				continue
			}
			if _, err := EncodeLorebook(lb, YAML); err != nil {
				t.Fatalf("converted but not writable: %v", err)
			}
			for _, target := range Targets {
				out, _, err := Export(lb, target, nil)
				if err != nil {
					t.Fatalf("export to %s: %v", target, err)
				}
				if _, _, err := Convert("again", out); err != nil {
					t.Fatalf("export to %s does not import: %v\n%s", target, err, out)
				}
			}
		}
	})
}

// FuzzPNGChunks: the chunk reader survives any bytes after the signature.
func FuzzPNGChunks(f *testing.F) {
	for _, p := range []string{"card_v3_both_chunks.png", "card_bad_crc.png", "card_oversized_chunk.png", "card_truncated.png"} {
		if b, err := os.ReadFile(filepath.Join(fixtureDir, p)); err == nil {
			f.Add(bytes.TrimPrefix(b, pngSignature))
		}
	}
	f.Fuzz(func(t *testing.T, rest []byte) {
		data := append(append([]byte{}, pngSignature...), rest...)
		if _, _, err := cardJSONFromPNG(data); err != nil && !strings.Contains(err.Error(), "PNG") {
			t.Fatalf("error without context: %v", err)
		}
	})
}
