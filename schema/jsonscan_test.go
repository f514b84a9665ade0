package schema

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/internal/bookgen"
)

// sameTree says where two node trees differ ("" when they do not), comparing
// everything a reader of the tree sees.
func sameTree(a, b *yaml.Node, path string) string {
	if a == nil || b == nil {
		if a != b {
			return path + ": one tree has no node"
		}
		return ""
	}
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Value != b.Value || a.Style != b.Style ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: %+v\n  vs %+v", path, *a, *b)
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkScan holds for any text lore would parse as JSON: the fast scanner
// accepts only what encoding/json accepts, and then builds the same tree.
func checkScan(t *testing.T, data []byte) {
	if !utf8.Valid(data) { // checkText refuses it before parsing
		return
	}
	fast, ok := scanJSON(data, 0, len(data), Pos{Line: 1, Col: 1})
	slow, err := parseJSONTokens(&cursor{data: data, file: "f.json", line: 1, col: 1}, 0, len(data))
	if ok && err != nil {
		t.Fatalf("scanJSON accepts %q, which encoding/json refuses: %v", data, err)
	}
	if !ok && err == nil {
		t.Fatalf("scanJSON refuses %q, which encoding/json accepts", data)
	}
	if ok {
		if d := sameTree(fast, slow, ""); d != "" {
			t.Fatalf("trees differ for %q at %s", data, d)
		}
	}
}

var scanSeeds = []string{
	`{}`, `[]`, `[{}, [], "", 0, -0, 1.5, -1e5, 2E+3, 0.1e-2, true, false, null]`,
	" \n\t{\"a\" : [1 , 2] ,\r\n \"b\":{\"c\":\"d\"}}\n",
	`{"k": "caf\u00e9 \ud83d\ude00 \ud800 \udc00x \u00", "é": "日本\n"}`,
	`"\"\\\/\b\f\n\r\t"`, `"\ud83d\u0041"`, `"\ud83dx"`, `"a` + "\x01" + `"`,
	`{"a":1,}`, `[1,]`, `[01]`, `[1.]`, `[.5]`, `[1e]`, `[-]`, `[+1]`, `tru`, `nul`, `[true false]`,
	`{"a" 1}`, `{1: 2}`, `{"a": 1} x`, `"\x"`, `"\u12G4"`, "[\"日本\",\n  \"x\", é]",
	`{"entries": [{"id": "a", "content": "line\nnext \"quoted\""}]}`,
}

func TestScanJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range scanSeeds {
		checkScan(t, []byte(s))
	}
	for _, sh := range []bookgen.Shape{bookgen.JSON, bookgen.JSONMin, bookgen.SillyTavern, bookgen.NovelAI} {
		data, err := bookgen.Bytes(sh, 30)
		if err != nil {
			t.Fatal(err)
		}
		checkScan(t, data)
	}
}

func FuzzScanJSON(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	addSeeds(f, "testdata/bad/*.json", "../fixtures/formats/*.json")
	f.Fuzz(checkScan)
}
