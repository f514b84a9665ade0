// Command genranks writes lore's rank tables (tokenize/internal/ranks/*.bin)
// from tiktoken-go's vocabularies, read through its public Decode: the token
// of rank r is Decode([r]).
//
//	go run ./tokenize/internal/genranks -out tokenize/internal/ranks
//
// or go generate ./tokenize/internal/ranks. Each table is written to a
// temporary file beside it and renamed, so a failed run leaves the old one.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lorekit/lore/tokenize/internal/genranks/vocab"
)

func main() {
	out := flag.String("out", "tokenize/internal/ranks", "folder to write the tables into")
	flag.Parse()
	for _, name := range vocab.Names {
		b, err := vocab.Table(name)
		if err == nil {
			err = writeAtomic(filepath.Join(*out, name+".bin"), b)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "genranks:", err)
			os.Exit(1)
		}
	}
}

// writeAtomic writes b to path through a temporary file in the same folder.
func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".genranks-*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
