package formats

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/internal/scaling"
	"github.com/lorekit/lore/internal/testcorpus"
	"github.com/lorekit/lore/schema"
)

// sameJNodes says where two jnode trees differ: kind, value, position, keys
// in source order (duplicates included) and children.
func sameJNodes(a, b *jnode, path string) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return path + ": one side is missing"
		}
		return ""
	case a.kind != b.kind || a.b != b.b || a.str != b.str || a.line != b.line || a.col != b.col ||
		a.num != b.num && !(a.num != a.num && b.num != b.num):
		return fmt.Sprintf("%s: %+v vs %+v", path, *a, *b)
	case len(a.kids) != len(b.kids):
		return fmt.Sprintf("%s: %d vs %d children", path, len(a.kids), len(b.kids))
	}
	if a.kind == jObj && strings.Join(a.shape.raw, "\x00") != strings.Join(b.shape.raw, "\x00") {
		return fmt.Sprintf("%s: keys %q vs %q", path, a.shape.raw, b.shape.raw)
	}
	for i := range a.kids {
		if d := sameJNodes(a.kids[i], b.kids[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkScan: on text foreignText lets through (UTF-8, no NUL, JSON by
// schema's rule), scanJSON accepts exactly the JSON that schema parses and
// builds the tree the converter builds from schema's.
func checkScan(t *testing.T, data []byte) {
	t.Helper()
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) || !schema.IsJSON("x.json", data) {
		return
	}
	got, ok := scanJSON(data)
	doc, err := schema.ParseDoc("x.json", data)
	if err != nil || !bytes.Equal(doc.Data, data) {
		if ok && err != nil {
			t.Fatalf("scanJSON accepts %q, which schema refuses: %v", data, err)
		}
		return
	}
	if !ok {
		t.Fatalf("scanJSON refuses %q, which schema parses", data)
	}
	want := (&converter{}).convert(doc.Root, 0, schema.MaxDepth+1)
	if d := sameJNodes(got, want, ""); d != "" {
		t.Fatalf("scanJSON(%q) differs from the converted tree at %s", data, d)
	}
	// Detection on the cut tree says what it says on the whole one.
	if _, f := detectTree(&converter{}, doc.Root); f != detect(want) {
		t.Fatalf("%q: detected %q from the cut tree, %q from the whole one", data, f, detect(want))
	}
}

func TestScanJSONBuildsTheConvertedTree(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":{}}`, `{"a":[]}`, `{"a":1,"a":2,"b":[1,{"c":null}]}`, ` {"x": "é\u00e9\n", "y": -0.5e3}`,
		"{\n  \"a\": [\n    true,\n    false\n  ]\n}\n", `{"big": 1e999, "n": 12345678901234567890}`, `{"a":[[[]]],"b":{"a":1}}`,
		`{"a"`, `{"a":}`, `[1,]`, `{"a":1}x`, `nul`, `"\ud800"`,
	} {
		checkScan(t, []byte(s))
	}
	deep := strings.Repeat("[", schema.MaxDepth+1) + strings.Repeat("]", schema.MaxDepth+1)
	if _, ok := scanJSON([]byte(deep)); ok {
		t.Errorf("scanJSON accepts nesting past schema.MaxDepth")
	}
}

func FuzzScanJSON(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkScan(t, data) })
}

// The files read by scanJSON open exactly as through schema's tree: the
// same lorebook, the same diagnostics, the same kind.
func TestForeignFastPathOpensTheSame(t *testing.T) {
	var files []string
	for _, dir := range []string{fixtureDir, testcorpus.Find(t)} {
		if dir == "" {
			continue
		}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
				files = append(files, p)
			}
			return nil
		})
	}
	fast := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src := SourceFrom(p, data)
		if src.text == nil {
			continue
		}
		fast++
		slow := &Source{Path: p}
		slow.doc, slow.DocErr = schema.ParseDoc(p, data)
		if src.Kind() != slow.Kind() || src.Foreign() != slow.Foreign() {
			t.Errorf("%s: kind %v foreign %v, through schema's tree %v %v", p, src.Kind(), src.Foreign(), slow.Kind(), slow.Foreign())
		}
		a, ads, aerr := src.Open()
		b, bds, berr := slow.Open()
		if fmt.Sprint(aerr) != fmt.Sprint(berr) || fmt.Sprint(ads) != fmt.Sprint(bds) {
			t.Errorf("%s: %v %v, through schema's tree %v %v", p, aerr, ads, berr, bds)
			continue
		}
		if a == nil || b == nil {
			continue
		}
		ay, _ := canon.EncodeLorebook(a, canon.YAML)
		by, _ := canon.EncodeLorebook(b, canon.YAML)
		if !bytes.Equal(ay, by) {
			t.Errorf("%s: the lorebook differs from the one read through schema's tree", p)
		}
		if src.Doc() == nil || src.Doc().Root == nil {
			t.Errorf("%s: Doc is not parsed on demand", p)
		}
	}
	if fast == 0 {
		t.Fatalf("no file of %d took the fast path", len(files))
	}
	t.Logf("%d of %d JSON files took the fast path", fast, len(files))
}

// TestSillyTavernOpensInOneTree pins what the fast path saves: opening a
// 2,000-entry SillyTavern book allocated 25 bytes per byte of the file
// through schema's tree and a copy of it, and 13 through scanJSON's one.
func TestSillyTavernOpensInOneTree(t *testing.T) {
	p, err := bookgen.Write(t.TempDir(), bookgen.SillyTavern, 2000)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if SourceFrom(p, data).text == nil {
		t.Fatal("bookgen's SillyTavern book does not take the fast path")
	}
	c := scaling.Measure(func() {
		if _, _, err := SourceFrom(p, data).Open(); err != nil {
			t.Fatal(err)
		}
	})
	if perByte := float64(c.Bytes) / float64(len(data)); perByte > 16 {
		t.Errorf("opening a %d-byte SillyTavern book allocated %v, %.1f bytes per byte (limit 16)", len(data), c, perByte)
	}
}

// TestDetectingLoreJSONCostsItsRoot: telling lore's own JSON from a foreign
// format converts its root and the root's values, not its entries (it
// converted all of them, a tenth of `lore validate` on 10,000 entries), so
// the cost is the same for 1,000 entries as for 4,000.
func TestDetectingLoreJSONCostsItsRoot(t *testing.T) {
	var allocs []float64
	for _, n := range []int{1000, 4000} {
		p, err := bookgen.Write(t.TempDir(), bookgen.JSON, n)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := schema.ParseDoc(p, data)
		if err != nil {
			t.Fatal(err)
		}
		allocs = append(allocs, testing.AllocsPerRun(3, func() {
			if src := (&Source{Path: p, doc: doc}); src.Foreign() {
				t.Fatal("lore's own JSON detected as foreign")
			}
		}))
	}
	if allocs[1] > allocs[0]+8 {
		t.Errorf("detecting lore's JSON took %.0f allocations at 1,000 entries and %.0f at 4,000: it converts the entries", allocs[0], allocs[1])
	}
}

func TestForeignHead(t *testing.T) {
	for head, want := range map[string]bool{
		`{"entries": {"0": {}}}`: true, "{\"entries\"\n :\t{": true, `{"entries": [{}]}`: false,
		`{"spec": "chara_card_v2"}`: true, `{"spec":"lorebook_v3"}`: true, `{"spec": "other"}`: false,
		`{"lorebookVersion": 5}`: true, `{"name": "entries", "entries": []}`: false,
		`{"x": "\"entries\"", "entries": {}}`: true, `{"description": "a spec"}`: false,
	} {
		if got := foreignHead([]byte(head)); got != want {
			t.Errorf("foreignHead(%s) = %v, want %v", head, got, want)
		}
	}
}
