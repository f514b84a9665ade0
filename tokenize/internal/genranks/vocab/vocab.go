// Package vocab reads tiktoken-go's vocabularies into lore's rank tables,
// for genranks and for the test that holds the embedded tables equal to them.
package vocab

import (
	"fmt"

	"github.com/lorekit/lore/tokenize/internal/ranks"
	"github.com/tiktoken-go/tokenizer"
)

// Names are the tokenizers lore embeds tables of.
var Names = []string{"o200k_base", "cl100k_base"}

// maxRank bounds the ranks looked for: both vocabularies end below it.
const maxRank = 1 << 18

// Table is the rank table of tokenizer name, built from tiktoken-go.
func Table(name string) ([]byte, error) {
	c, err := tokenizer.Get(tokenizer.Encoding(name))
	if err != nil {
		return nil, err
	}
	var tokens [][]byte
	for r := 0; r < maxRank; r++ {
		s, err := c.Decode([]uint{uint(r)})
		if err != nil || s == "" {
			tokens = append(tokens, nil)
			continue
		}
		tokens = append(tokens, []byte(s))
	}
	for len(tokens) > 0 && tokens[len(tokens)-1] == nil {
		tokens = tokens[:len(tokens)-1]
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("%s: no tokens", name)
	}
	return ranks.Build(tokens)
}
