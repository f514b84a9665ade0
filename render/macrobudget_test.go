package render

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand"
	"strings"
	"testing"

	"github.com/lorekit/lore/schema"
)

// pick hashes the seed and the text once per Expand and the offset per
// macro; the choices are those of FNV-1a over all three, as before.
func TestPickIsFNV(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 500; i++ {
		seed := r.Int63() - r.Int63()
		text := strings.Repeat("ab{{random::x::y}}é", r.Intn(5))
		offset, n := r.Intn(1000), 1+r.Intn(9)
		h := fnv.New64a()
		var buf [8]byte
		binary.LittleEndian.PutUint64(buf[:], uint64(seed))
		h.Write(buf[:])
		h.Write([]byte(text))
		binary.LittleEndian.PutUint64(buf[:], uint64(offset))
		h.Write(buf[:])
		want := int(h.Sum64() % uint64(n))
		m := &Macros{seed: seed}
		var th textHash
		if got := m.pick(&th, text, offset, n); got != want {
			t.Fatalf("pick(%d, %q, %d, %d) = %d, want %d", seed, text, offset, n, got, want)
		}
	}
}

// {{char}} with a long name, used thousands of times, stops at the render's
// budget: the output stays bounded and the render says which entry and
// which macro.
func TestMacroBudget(t *testing.T) {
	name := strings.Repeat("N", 100_000)
	content := strings.Repeat("{{char}} ", 20_000)
	book := &schema.Lorebook{Manifest: schema.Manifest{Name: "Mac", Character: name},
		Entries: []*schema.Entry{{ID: "small", Content: "{{char}} once", Enabled: true}, {ID: "bomb", Content: content, Enabled: true, Pos: schema.Pos{File: "mac.yaml", Line: 4, Col: 5}}}}
	in, err := Prepare(&Input{Book: book, Settings: schema.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMacros(in)
	if got := m.Expand(book.Entries[0].Content); got != name+" once" {
		t.Fatalf("a small expansion within the budget: %.40q", got)
	}
	out := m.Expand(content)
	budget := max(MacroGrowth*(len(content)+len("{{char}} once")+len(name)+len("Mac")), MinMacroBudget)
	if len(out) > len(content)+budget {
		t.Errorf("expanded to %d bytes, over the %d the budget allows", len(out), len(content)+budget)
	}
	if !strings.HasSuffix(out, "{{char}} {{char}} ") {
		t.Error("the rest of the text is not left as written")
	}
	if again := m.Expand("{{char}}"); again != "{{char}}" {
		t.Error("a spent budget still expands")
	}
	l := in.MacroBudget().Limit(book)
	for _, want := range []string{`mac.yaml:4:5: entry "bomb": `, "{{char}} adds 97 KiB more", "at most 16 MiB"} {
		if !strings.Contains(l, want) {
			t.Errorf("limit %q does not say %q", l, want)
		}
	}
	if NewMacroBudget(in).Limit(book) != "" {
		t.Error("a fresh budget reports an overflow")
	}
}
