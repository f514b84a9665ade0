package canon

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestEncodeChunksIsWhole: the entries list written a chunk at a time gives
// the bytes of encoding the whole document, for the fixtures and for
// generated books with text long enough to fold, block scalars, quoting,
// nested lists, keys after the list.
func TestEncodeChunksIsWhole(t *testing.T) {
	defer func(f, s int) { chunkFrom, chunkSize = f, s }(chunkFrom, chunkSize)
	chunkFrom, chunkSize = 2, 3

	var inputs [][]byte
	files, _ := filepath.Glob(filepath.Join("testdata", "fmt", "*.in.yaml"))
	files = append(files, filepath.Join("..", "fixtures", "sakura", "book.yaml"))
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, stripComments(d))
	}
	r := rand.New(rand.NewSource(7))
	words := strings.Fields("the tavern of Millbrook keeps a ledger: every debt, every name — and 'quotes', \"double\", hash, [brackets] {braces} 東京 café ü")
	for n := 0; n < 60; n++ {
		var b strings.Builder
		b.WriteString("name: Generated\nentries:\n")
		for i := 0; i < 1+r.Intn(12); i++ {
			var c strings.Builder
			for j := 0; j < r.Intn(60); j++ {
				c.WriteString(words[r.Intn(len(words))] + " ")
				if r.Intn(15) == 0 {
					c.WriteString("\n")
				}
			}
			fmt.Fprintf(&b, "  - id: e%d\n    section: chat-history\n    keywords: [%q, %q]\n    content: %q\n",
				i, words[r.Intn(len(words))], words[r.Intn(len(words))], c.String())
		}
		if r.Intn(2) == 0 {
			b.WriteString("variables:\n  - {id: gold, type: number, default: 3}\n")
		}
		inputs = append(inputs, []byte(b.String()))
	}
	chunked := 0
	for i, d := range inputs {
		var doc yaml.Node
		if yaml.Unmarshal(d, &doc) != nil || len(doc.Content) != 1 || bytes.IndexByte(d, '#') >= 0 {
			continue
		}
		styleTree(doc.Content[0], "")
		want, err := encodeWhole(&doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeYAMLDoc(&doc, d)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("input %d: chunked encoding differs:\n%s\n--- whole ---\n%s", i, got, want)
		}
		if _, seq := entriesList(doc.Content[0]); seq != nil && len(seq.Content) >= chunkFrom {
			chunked++
		}
	}
	if chunked < 20 {
		t.Fatalf("only %d inputs were written in chunks: the test tests too little", chunked)
	}
}
