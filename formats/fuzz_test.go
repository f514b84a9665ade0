package formats

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/schema"
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
// conversion panic, whatever converts can be written as lore's YAML, and
// what each export writes imports again as the format it was written for,
// changing nothing its loss report does not name, with every exported
// SillyTavern entry's text.
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
			if _, err := canon.EncodeLorebook(lb, canon.YAML); err != nil {
				t.Fatalf("converted but not writable: %v", err)
			}
			for _, target := range Targets {
				back := assertReported(t, lb, target)
				if back.Format != target {
					t.Fatalf("export to %s reads back as %s", target, back.Format)
				}
			}
			st, _, _ := Export(lb, FormatSillyTavern, nil)
			back, _, _ := Convert("export.json", st)
			if got, want := contents(back), contents(worldInfo(lb)); !slices.Equal(got, want) {
				t.Fatalf("SillyTavern export re-imports %d texts %q, want %d %q", len(got), got, len(want), want)
			}
		}
	})
}

// worldInfo is the lorebook without the entries a SillyTavern export leaves
// out: those made from a card's own fields, and greetings.
func worldInfo(lb *schema.Lorebook) *schema.Lorebook {
	c := *lb
	c.Entries = nil
	for _, e := range lb.Entries {
		if isWorldInfo(e) {
			c.Entries = append(c.Entries, e)
		}
	}
	return &c
}

// contents is the sorted texts of a lorebook's entries.
func contents(lb *schema.Lorebook) []string {
	var out []string
	for _, e := range lb.Entries {
		out = append(out, e.Content)
	}
	slices.Sort(out)
	return out
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
