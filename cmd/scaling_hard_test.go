package cmd

import (
	"io"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/internal/scaling"
)

// commandGrowth is the most a command's allocations may grow when the
// entries double, on bookgen's shapes (issue 24: 2.1 for every command).
const commandGrowth = 2.1

// TestCommandsLinear: lint, render (against a 20-message chat) and tokens
// allocate at most commandGrowth times as much when the entries double, on
// bookgen's place%d book and on the hard shape (CJK keywords, saturated
// recursion, a 128k context).
func TestCommandsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("runs commands on lorebooks of thousands of entries")
	}
	for _, s := range []bookgen.Shape{bookgen.YAML, bookgen.CJK} {
		for _, c := range []string{"lint", "render", "tokens"} {
			t.Run(string(s)+"/"+c, func(t *testing.T) {
				scaling.LinearWithin(t, 1000, commandGrowth, func(n int) func() {
					dir := t.TempDir()
					p, err := bookgen.Write(dir, s, n)
					if err != nil {
						t.Fatal(err)
					}
					args := []string{c, p}
					if c == "render" {
						chat, err := bookgen.WriteHardChat(dir, n, 20)
						if err != nil {
							t.Fatal(err)
						}
						args = append(args, "--transcript", chat)
					}
					return func() {
						iox := IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
						if code := Main(args, iox); code > ExitFindings {
							t.Fatalf("%v: exit %d", args, code)
						}
					}
				})
			})
		}
	}
}
