package formats

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/golden"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/schema"
)

const fixtureDir = "../fixtures/formats"

// TestFixturesGolden imports every synthetic fixture and compares the lore
// YAML and the import notes with testdata/golden/<fixture>.yaml (update with
// go test ./formats -update). The output must also load back unchanged.
func TestFixturesGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".png") && strings.Contains(filepath.Base(f), "_bad") || strings.Contains(f, "oversized") || strings.Contains(f, "truncated") || strings.Contains(f, "no_chara") {
			continue // TestBrokenPNG
		}
		if strings.Contains(f, "traversal") {
			continue // TestHostileCharX, convert.txtar
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			lb, ds, err := Open(f)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			for _, d := range ds {
				fmt.Fprintf(&b, "# %s: %s: %s [%s]\n", d.Pos(), d.Severity, d.Message, d.Rule)
			}
			out, err := canon.EncodeLorebook(lb, canon.YAML)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(out)
			checkGolden(t, filepath.Join("testdata", "golden", filepath.Base(f)+".yaml"), b.Bytes())
			assertReloads(t, lb, canon.YAML)
			assertReloads(t, lb, canon.JSON)
		})
	}
}

func checkGolden(t *testing.T, path string, got []byte) { golden.Check(t, path, got) }

// TestBrokenPNG: corrupt cards fail with a message that says what is wrong
// and where, never with a panic or a garbled card.
func TestBrokenPNG(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"card_bad_crc.png", "fails its CRC check"},
		{"card_oversized_chunk.png", "claims 2147483632 bytes"},
		{"card_truncated.png", "truncated"},
		{"card_no_chara.png", "no character card"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, _, err := Open(filepath.Join(fixtureDir, tc.file))
			var pe *schema.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("want a ParseError, got %v", err)
			}
			if !strings.Contains(pe.Msg, tc.want) || !strings.Contains(pe.Error(), tc.file) {
				t.Errorf("error %q, want it to name the file and say %q", pe.Error(), tc.want)
			}
		})
	}
}

func entryByID(t *testing.T, lb *schema.Lorebook, id string) *schema.Entry {
	t.Helper()
	for _, e := range lb.Entries {
		if e.ID == id {
			return e
		}
	}
	var ids []string
	for _, e := range lb.Entries {
		ids = append(ids, e.ID)
	}
	t.Fatalf("no entry %q (have %v)", id, ids)
	return nil
}

// TestSillyTavernMapping pins the SPEC §8 facts on the edge-case fixture.
func TestSillyTavernMapping(t *testing.T) {
	lb, _, err := Open(filepath.Join(fixtureDir, "st_edge_cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	intp := func(i int) *int { return &i }
	for _, tc := range []struct {
		id, section, apiRole, role, logic string
		depth                             *int
		position                          int
		enabled, always                   bool
		secondary                         int
	}{
		{"old-shape", "chat-history", "system", "lore", "AND_ANY", nil, 100, true, false, 0},
		{"entry-7", "chat-history", "system", "lore", "NOT_ANY", nil, 50, true, false, 1}, // 桜の木: no Latin letters → uid
		{"dragon", "chat-history", "system", "lore", "AND_ANY", nil, 100, true, false, 0}, // missing fields: ST defaults
		{"regex-key-non-selective-secondaries", "post-history", "system", "lore", "AND_ANY", nil, 10, true, false, 0},
		{"status-bar", "post-history", "system", "lore", "AND_ANY", nil, 900, true, true, 0},                 // depth 0: after the newest message
		{"whisper-at-depth-2", "chat-history", "assistant", "lore", "AND_ANY", intp(1), 100, true, false, 0}, // ST depth 2 → lore 1
		{"example-duel", "examples", "system", "example", "AND_ANY", nil, 100, true, false, 0},
		{"outlet", "chat-history", "system", "lore", "AND_ANY", nil, 100, false, false, 0},
		{"chancy-storm", "post-history", "system", "lore", "AND_ANY", nil, 100, false, false, 0},
		{"sparse-uid", "chat-history", "system", "lore", "AND_ANY", nil, 450, true, false, 0},
	} {
		e := entryByID(t, lb, tc.id)
		got := fmt.Sprint(e.Section, e.APIRole, e.Role, e.SecondaryKeywordLogic, e.Position, e.Enabled, e.AlwaysSend, len(e.SecondaryKeywords))
		want := fmt.Sprint(tc.section, tc.apiRole, tc.role, tc.logic, tc.position, tc.enabled, tc.always, tc.secondary)
		if got != want {
			t.Errorf("%s: got %s, want %s", tc.id, got, want)
		}
		if (e.Depth == nil) != (tc.depth == nil) || (e.Depth != nil && *e.Depth != *tc.depth) {
			t.Errorf("%s: depth %v, want %v", tc.id, e.Depth, tc.depth)
		}
	}
	if e := entryByID(t, lb, "regex-key-non-selective-secondaries"); e.Keywords[0].Text != "/bug ?#?[0-9]+/i" {
		t.Errorf("regex key changed: %q", e.Keywords[0].Text)
	}
	if e := entryByID(t, lb, "whisper-at-depth-2"); !e.MatchWholeWords {
		t.Error("matchWholeWords true not mapped")
	}
	if e := entryByID(t, lb, "chancy-storm"); !e.ExcludeRecursion || !e.PreventRecursion {
		t.Error("recursion flags not mapped")
	}
	// Positions point into the source file.
	if e := entryByID(t, lb, "dragon"); e.Pos.Line == 0 || e.Keywords[0].Pos.Line <= e.Pos.Line {
		t.Errorf("positions: entry %v, keyword %v", e.Pos, e.Keywords[0].Pos)
	}
	assertSTRoundTrip(t, filepath.Join(fixtureDir, "st_edge_cases.json"))
}

// TestPNGPrefersCCV3: with both chunks, ccv3 wins (V3 spec).
func TestPNGPrefersCCV3(t *testing.T) {
	lb, _, err := Open(filepath.Join(fixtureDir, "card_v3_both_chunks.png"))
	if err != nil {
		t.Fatal(err)
	}
	if lb.Format != FormatCardV3 || lb.Manifest.Character != "Lyra" || lb.Path != filepath.Join(fixtureDir, "card_v3_both_chunks.png") {
		t.Errorf("got format %s character %q path %s", lb.Format, lb.Manifest.Character, lb.Path)
	}
}

// TestCardV3ExportRoundTrip: a card exported to V3 and imported again has the
// same entries (book and card fields).
func TestCardV3ExportRoundTrip(t *testing.T) {
	for _, f := range []string{"card_v3_decorators.json", "card_v2_minimal.json", "st_edge_cases.json"} {
		t.Run(f, func(t *testing.T) {
			lb, _, err := Open(filepath.Join(fixtureDir, f))
			if err != nil {
				t.Fatal(err)
			}
			out := exportCard(lb, FormatCardV3)
			path := filepath.Join(t.TempDir(), "card.json")
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			back, _, err := Open(path)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if back.Format != FormatCardV3 {
				t.Fatalf("exported card reads as %s", back.Format)
			}
			a, b := lb.Entries, back.Entries
			if len(a) != len(b) {
				t.Fatalf("%d entries back, want %d", len(b), len(a))
			}
			for i := range a {
				x, y := a[i], b[i]
				if x.Content != y.Content || x.Section != y.Section || x.Position != y.Position || x.Enabled != y.Enabled ||
					x.AlwaysSend != y.AlwaysSend || fmt.Sprint(keywordTexts(x.Keywords)) != fmt.Sprint(keywordTexts(y.Keywords)) ||
					fmt.Sprint(x.Depth) != fmt.Sprint(y.Depth) && (x.Depth == nil || y.Depth == nil || *x.Depth != *y.Depth) ||
					x.APIRole != y.APIRole || x.SecondaryKeywordLogic != y.SecondaryKeywordLogic {
					t.Errorf("entry %d: %s/%s changed:\n%+v\n%+v", i, x.ID, y.ID, *x, *y)
				}
			}
		})
	}
}

// TestLongLinePositions: columns on a long minified line are counted in
// runes, and a card inside a PNG keeps its "file.png[chunk]" name.
func TestLongLinePositions(t *testing.T) {
	data := []byte(`{"entries":{"0":{"comment":"` + strings.Repeat("é", 5000) + `","key":["` + strings.Repeat("a", 9000) + `"],"content":"x"}}}`)
	lb, _, err := Convert("long.json", data)
	if err != nil {
		t.Fatal(err)
	}
	e := lb.Entries[0]
	if p := e.Fields["keywords"]; p.Line != 1 || p.Col != 5000+37 {
		t.Errorf("keys at %v, want 1:%d", p, 5000+37)
	}
	if p := e.Fields["content"]; p.Col != 5000+9000+52 {
		t.Errorf("content at %v, want 1:%d", p, 5000+9000+52)
	}
}

// pngCard builds a PNG whose chara chunk holds text (base64, as cards do).
func pngCard(text string) []byte {
	chunk := func(typ string, body []byte) []byte {
		out := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
		out = append(append(out, typ...), body...)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(typ), body...)))
	}
	data := append([]byte{}, pngSignature...)
	data = append(data, chunk("tEXt", append([]byte("chara\x00"), base64.StdEncoding.EncodeToString([]byte(text))...))...)
	return append(data, chunk("IEND", nil)...)
}

// TestPNGCardPositions: positions inside a card's JSON name "<file>[chara]",
// for entries and for syntax errors alike (the JSON is parsed by schema),
// and text that is not JSON is refused rather than read as YAML.
func TestPNGCardPositions(t *testing.T) {
	lb, _, err := Convert("c.png", pngCard(`{"spec":"chara_card_v2","data":{"name":"A",`+"\n"+`"description":"hi"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if lb.Path != "c.png" || lb.Entries[0].Pos.String() != "c.png[chara]:2:15" {
		t.Errorf("path %s, entry at %s; want c.png and c.png[chara]:2:15", lb.Path, lb.Entries[0].Pos)
	}
	for _, tc := range []struct{ text, at, msg string }{
		{`{"spec":"chara_card_v2","data":{"name":"A",` + "\n" + `"description":`, "c.png[chara]:2:15", "invalid JSON"},
		{"name: A\ndescription: hi\n", "c.png[chara]:1:1", "does not hold a JSON object"},
	} {
		_, _, err := Convert("c.png", pngCard(tc.text))
		var pe *schema.ParseError
		if !errors.As(err, &pe) || pe.Pos.String() != tc.at || !strings.Contains(pe.Msg, tc.msg) {
			t.Errorf("%q: got %v, want a ParseError at %s saying %q", tc.text, err, tc.at, tc.msg)
		}
	}
}
