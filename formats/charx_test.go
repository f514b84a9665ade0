package formats

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/json"
	"errors"
	"hash/crc32"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lorekit/lore/schema"
)

// zipOf builds a zip with the given files (name → content), stored.
func zipOf(t testing.TB, files ...[2]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f[0], Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(f[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const tinyCard = `{"spec":"chara_card_v3","spec_version":"3.0","data":{"name":"Keeper","description":"Keeps the light.",
"character_book":{"name":"Coast","entries":[{"keys":["lamp"],"content":"The lamp is lit.","enabled":true,"insertion_order":10,"extensions":{}}]}}}`

// bomb is a zip whose one file inflates n zero bytes from a few KB; with
// lie, the directory claims the file is 100 bytes.
func bomb(t testing.TB, n int, lie bool) []byte {
	t.Helper()
	var deflated bytes.Buffer
	fw, _ := flate.NewWriter(&deflated, flate.BestCompression)
	zeros := make([]byte, 1<<20)
	for i := 0; i < n>>20; i++ {
		fw.Write(zeros)
	}
	fw.Close()
	h := &zip.FileHeader{Name: "card.json", Method: zip.Deflate, CompressedSize64: uint64(deflated.Len()),
		UncompressedSize64: uint64(n), CRC32: crc32.ChecksumIEEE(nil)}
	if lie {
		h.UncompressedSize64 = 100
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(deflated.Bytes())
	zw.Close()
	return b.Bytes()
}

// manyFiles is a zip of n one-byte files (past 65,535 it is a zip64).
func manyFiles(t testing.TB, n int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i := 0; i < n; i++ {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "a/" + strings.Repeat("x", i%7) + string(rune('a'+i%26)), Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte{'x'})
	}
	zw.Close()
	return b.Bytes()
}

// TestHostileCharX: archives built to hurt are refused with a message that
// says why, before anything big is inflated: the refusal of a bomb
// allocates a small part of what it would inflate to, and the refusal of
// 100,000 files does not parse them (a handful of allocations).
func TestHostileCharX(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		data       []byte
		maxBytes   uint64
	}{
		{"zip bomb", "a zip bomb, refused before inflating", bomb(t, 64<<20, false), 4 << 20},
		{"lying sizes", "does not inflate to the 100 bytes it declares", bomb(t, 64<<20, true), 4 << 20},
		{"parent dir", `"../evil.json" points outside the archive`, zipOf(t, [2]string{"card.json", tinyCard}, [2]string{"../evil.json", "{}"}), 1 << 20},
		{"absolute", `"/etc/passwd" points outside`, zipOf(t, [2]string{"/etc/passwd", "x"}), 1 << 20},
		{"backslash", `"assets\\..\\..\\x" points outside`, zipOf(t, [2]string{"assets\\..\\..\\x", "x"}), 1 << 20},
		{"drive", `"C:/x" points outside`, zipOf(t, [2]string{"C:/x", "x"}), 1 << 20},
		{"100k files", "lists 100000 files, over the limit of 10000", manyFiles(t, 100000), 1 << 20},
		{"no card", "no card.json", zipOf(t, [2]string{"assets/a.png", "x"}), 1 << 20},
		{"not a card", "card.json does not hold a character card", zipOf(t, [2]string{"card.json", "[1, 2]"}), 1 << 20},
		{"truncated", "truncated or not a zip", zipOf(t, [2]string{"card.json", tinyCard})[:40], 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := Convert("hostile.charx", tc.data)
			runtime.ReadMemStats(&after)
			var pe *schema.ParseError
			if !errors.As(err, &pe) || !strings.Contains(pe.Error(), tc.want) || !strings.HasPrefix(pe.Error(), "hostile.charx") {
				t.Fatalf("got %v, want an error naming the file and saying %q", err, tc.want)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > tc.maxBytes {
				t.Errorf("refusing it allocated %d bytes, want under %d", got, tc.maxBytes)
			}
		})
	}
}

// TestManyFilesRefusedWithoutParsing: the file count is read from the end
// record; the 100,000 entries are never parsed (allocations do not grow
// with them).
func TestManyFilesRefusedWithoutParsing(t *testing.T) {
	data := manyFiles(t, 100000)
	allocs := testing.AllocsPerRun(5, func() { Convert("many.charx", data) })
	if allocs > 20 {
		t.Errorf("%.0f allocations to refuse 100,000 files, want a handful", allocs)
	}
}

// TestCharXRoundTrip: a card exported as a .charx with assets imports as
// the same lorebook, lists the assets, carries them over when exported
// again from the .charx, and is the same bytes every time.
func TestCharXRoundTrip(t *testing.T) {
	lb, _, err := Open(filepath.Join(fixtureDir, "card_v3_decorators.json"))
	if err != nil {
		t.Fatal(err)
	}
	icon := Asset{Path: AssetPath("icon", "portrait.png"), Data: []byte("\x89PNG fake")}
	out, report, err := Export(lb, FormatCharX, []Asset{icon})
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := Export(lb, FormatCharX, []Asset{icon})
	if !bytes.Equal(out, again) {
		t.Error("two exports differ")
	}
	for _, l := range report.Losses {
		t.Errorf("unexpected loss: %+v", l)
	}
	back, _, err := Convert("nova.charx", out)
	if err != nil {
		t.Fatal(err)
	}
	if back.Format != FormatCharX || back.Path != "nova.charx" || len(back.Entries) != len(lb.Entries) {
		t.Fatalf("format %s path %s, %d entries (want %d)", back.Format, back.Path, len(back.Entries), len(lb.Entries))
	}
	for i := range lb.Entries {
		if a, b := loreView(lb.Entries[i]), loreView(back.Entries[i]); a != b || lb.Entries[i].Content != back.Entries[i].Content {
			t.Errorf("entry %d: %s\n%s", i, a, b)
		}
	}
	if p := back.Entries[0].Pos.File; p != "nova.charx[card.json]" {
		t.Errorf("positions in %s, want nova.charx[card.json]", p)
	}
	assets, err := CharXAssets(out)
	if err != nil || len(assets) != 1 || assets[0].Path != icon.Path || !bytes.Equal(assets[0].Data, icon.Data) {
		t.Fatalf("assets %v, %v", assets, err)
	}
	var card struct {
		Data struct{ Assets []map[string]string }
	}
	zr, _ := zip.NewReader(bytes.NewReader(out), int64(len(out)))
	rc, _ := zr.File[0].Open()
	json.NewDecoder(rc).Decode(&card)
	if zr.File[0].Name != "card.json" || len(card.Data.Assets) != 1 || card.Data.Assets[0]["uri"] != "embeded://assets/icon/images/portrait.png" ||
		card.Data.Assets[0]["type"] != "icon" || card.Data.Assets[0]["ext"] != "png" {
		t.Errorf("first file %s, assets %v", zr.File[0].Name, card.Data.Assets)
	}
	// Exported again without the asset: the report names it.
	_, report, _ = Export(back, FormatCharX, nil)
	if len(report.Losses) != 1 || report.Losses[0].Value != icon.Path || report.Losses[0].Kind != LossDropped {
		t.Errorf("losses %+v, want the missing asset", report.Losses)
	}
}

// TestCharXModuleReported: a RisuAI module in a .charx is not read, and
// the import's loss report says so.
func TestCharXModuleReported(t *testing.T) {
	data := zipOf(t, [2]string{"card.json", tinyCard}, [2]string{"module.risum", "\x6f\x00rpack"})
	lb, ds, err := Convert("risu.charx", data)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range ImportLosses(lb) {
		found = found || l.Value == "module.risum" && strings.Contains(l.Reason, "RPack")
	}
	if !found || len(ds) == 0 {
		t.Errorf("module.risum not reported (diagnostics %v)", ds)
	}
}

// BenchmarkRefuseManyFiles measures the refusal of 100,000 tiny files.
func BenchmarkRefuseManyFiles(b *testing.B) {
	data := manyFiles(b, 100000)
	b.ReportAllocs()
	for b.Loop() {
		Convert("many.charx", data)
	}
}

// BenchmarkRefuseBomb measures the refusal of a 64 MiB zip bomb.
func BenchmarkRefuseBomb(b *testing.B) {
	data := bomb(b, 64<<20, false)
	b.ReportAllocs()
	for b.Loop() {
		Convert("bomb.charx", data)
	}
}
