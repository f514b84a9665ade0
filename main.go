// Command lore lints, renders and converts AI-roleplay lorebooks.
package main

import (
	"os"

	"github.com/lorekit/lore/cmd"
)

func main() {
	cmd.TuneGC()
	os.Exit(cmd.Main(os.Args[1:], cmd.StdIO()))
}
