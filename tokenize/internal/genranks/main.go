// Command genranks writes lore's rank tables (tokenize/internal/ranks/*.bin)
// from tiktoken-go's vocabularies, read through its public Decode: the token
// of rank r is Decode([r]).
//
//	go run ./tokenize/internal/genranks -out tokenize/internal/ranks
//
// or go generate ./tokenize/internal/ranks. Each table is written as lore
// writes every file (canon.WriteFile: a temporary file beside it, renamed),
// so a failed run leaves the old one.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lorekit/lore/canon"
	"github.com/lorekit/lore/tokenize/internal/genranks/vocab"
)

func main() {
	out := flag.String("out", "tokenize/internal/ranks", "folder to write the tables into")
	flag.Parse()
	for _, name := range vocab.Names {
		b, err := vocab.Table(name)
		if err == nil {
			err = canon.WriteFile(filepath.Join(*out, name+".bin"), b)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "genranks:", err)
			os.Exit(1)
		}
	}
}
