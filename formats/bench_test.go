package formats

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/lorekit/lore/canon"
)

// bigST is a SillyTavern book with n entries of realistic size.
func bigST(n int) []byte {
	ents := map[string]any{}
	for i := 0; i < n; i++ {
		ents[fmt.Sprint(i)] = map[string]any{"uid": i, "key": []string{fmt.Sprintf("place %d", i), fmt.Sprintf("alias %d", i)},
			"keysecondary": []string{}, "comment": fmt.Sprintf("Place %d", i), "content": fmt.Sprintf("Place %d is a town by the river.\nIt has a market and %d houses.", i, i*7),
			"constant": false, "selective": true, "selectiveLogic": 0, "order": 100 + i%50, "position": i % 5, "disable": false,
			"depth": 4, "probability": 100, "useProbability": true, "group": "", "sticky": 0}
	}
	b, _ := json.Marshal(map[string]any{"entries": ents})
	return b
}

func BenchmarkConvertST5000(b *testing.B) {
	data := bigST(5000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := Convert("big.json", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeYAML5000(b *testing.B) {
	lb, _, err := Convert("big.json", bigST(5000))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := canon.EncodeLorebook(lb, canon.YAML); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExportST5000(b *testing.B) {
	lb, _, err := Convert("big.json", bigST(5000))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		exportSillyTavern(lb)
	}
}
