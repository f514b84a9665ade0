package cmd

import (
	"io"
	"strings"
	"testing"

	"github.com/lorekit/lore/internal/bookgen"
	"github.com/lorekit/lore/internal/scaling"
)

// TestValidateLinear: `lore validate` on every input shape allocates at most
// scaling.MaxGrowth times as much when the entries double, so a quadratic
// path in reading, detecting, importing or checking fails here.
func TestValidateLinear(t *testing.T) {
	for _, s := range bookgen.Shapes {
		t.Run(string(s), func(t *testing.T) {
			scaling.Linear(t, 1000, func(n int) func() {
				p, err := bookgen.Write(t.TempDir(), s, n)
				if err != nil {
					t.Fatal(err)
				}
				return func() {
					iox := IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
					if code := Main([]string{"validate", p}, iox); code != 0 {
						t.Fatalf("validate %s: exit %d", p, code)
					}
				}
			})
		})
	}
}
