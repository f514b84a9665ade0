package bookgen

import (
	"bytes"
	"strings"
	"testing"
)

// TestBytesDeterministicAndSized: the same arguments give the same bytes
// (benchmarks compare runs), and twice the entries about twice the bytes.
func TestBytesDeterministicAndSized(t *testing.T) {
	for _, s := range append(Shapes, SillyTavernFindings) {
		a, err := Bytes(s, 100)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Bytes(s, 100)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two calls differ", s)
		}
		c, _ := Bytes(s, 200)
		if r := float64(len(c)) / float64(len(a)); r < 1.8 || r > 2.2 {
			t.Errorf("%s: 200 entries are %.2f times 100", s, r)
		}
	}
	bomb, _ := Bytes(AliasBomb, 10)
	if strings.Count(string(bomb), "*big") != 9 || len(bomb) < 1<<20 {
		t.Errorf("alias bomb: %d aliases, %d bytes", strings.Count(string(bomb), "*big"), len(bomb))
	}
	if _, err := Bytes("nope", 1); err == nil {
		t.Error("an unknown shape is an error")
	}
}
