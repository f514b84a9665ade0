package tokenize

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/lorekit/lore/internal/golden"
)

func mustGet(t testing.TB, name string) Counter {
	t.Helper()
	c, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Reference counts from OpenAI's tiktoken (the token ids the tiktoken-go test
// suite pins, and tiktoken's own output for the Japanese greetings).
func TestReferenceCounts(t *testing.T) {
	tests := []struct {
		text          string
		o200k, cl100k int
	}{
		{"", 0, 0},
		{"hello world", 2, 2},
		{"hello  world", 3, 3},
		{"'RE", 2, 1},
		{"supercalifragilistic", 6, 7},
		{"We know what we are, but know not what we may be.", 14, 14},
		{"こんにちは", 1, 1},
		{"こんにちは世界", 2, 4},
	}
	for _, tt := range tests {
		for name, want := range map[string]int{O200kBase: tt.o200k, Cl100kBase: tt.cl100k} {
			if got := mustGet(t, name).Count(tt.text); got != want {
				t.Errorf("%s.Count(%q) = %d, want %d", name, tt.text, got, want)
			}
		}
	}
}

func TestChars4(t *testing.T) {
	c := mustGet(t, Chars4)
	tests := []struct {
		text string
		want int
	}{
		{"", 0}, {"a", 1}, {"abcd", 1}, {"abcde", 2}, {"hello world", 3},
		{"桜", 1}, {"桜の宿", 3}, // 9 bytes
	}
	for _, tt := range tests {
		if got := c.Count(tt.text); got != tt.want {
			t.Errorf("chars4.Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestGetUnknown(t *testing.T) {
	_, err := Get("gpt2")
	if err == nil {
		t.Fatal("Get(gpt2) succeeded")
	}
	for _, n := range Names() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %s", err, n)
		}
	}
	c, err := Get("")
	if err != nil || c.Name() != Default {
		t.Errorf("Get(\"\") = %v, %v; want the default", c, err)
	}
}

// TestFixtureCounts pins the token counts of the fixture files so a tokenizer
// upgrade that changes them shows up as a reviewed diff (go test -update).
func TestFixtureCounts(t *testing.T) {
	var files []string
	for _, pat := range []string{"../fixtures/*/*.yaml", "../fixtures/*/book/*.yaml", "../fixtures/*/book/entries/*.yaml"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no fixtures: in-repo fixtures are never optional")
	}
	var b strings.Builder
	b.WriteString("# file\to200k_base\tcl100k_base\tchars4\n")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		fmt.Fprintf(&b, "%s\t%d\t%d\t%d\n", filepath.ToSlash(f),
			mustGet(t, O200kBase).Count(s), mustGet(t, Cl100kBase).Count(s), mustGet(t, Chars4).Count(s))
	}
	golden.Check(t, filepath.Join("testdata", "fixtures.golden"), []byte(b.String()))
}

func TestTruncate(t *testing.T) {
	texts := []string{
		"",
		"hello world",
		"We know what we are, but know not what we may be.",
		"桜の宿は鴨川のほとりに建つ百年続く旅館。庭に古い桜の木がある。",
		"emoji 🧙‍♀️ wizard 🏰 castle ✨",
		"mixed 日本語 and English, ｻｸﾗ half-width.",
	}
	for _, name := range Names() {
		c := mustGet(t, name)
		for _, s := range texts {
			total := c.Count(s)
			prev := ""
			for n := 0; n <= total+1; n++ {
				got := c.Truncate(s, n)
				if !strings.HasPrefix(s, got) {
					t.Fatalf("%s.Truncate(%q, %d) = %q: not a prefix", name, s, n, got)
				}
				if !utf8.ValidString(got) {
					t.Fatalf("%s.Truncate(%q, %d) = %q: invalid UTF-8", name, s, n, got)
				}
				if k := c.Count(got); k > n {
					t.Fatalf("%s.Truncate(%q, %d) = %q has %d tokens", name, s, n, got, k)
				}
				if len(got) < len(prev) {
					t.Fatalf("%s.Truncate(%q, %d) shorter than at n-1", name, s, n)
				}
				prev = got
			}
			if got := c.Truncate(s, total); got != s {
				t.Errorf("%s.Truncate(s, Count(s)) = %q, want all of %q", name, got, s)
			}
		}
	}
}

func TestTruncateBoundary(t *testing.T) {
	o := mustGet(t, O200kBase)
	// "hello world" is [hello][ world]: one token keeps "hello".
	if got := o.Truncate("hello world", 1); got != "hello" {
		t.Errorf("Truncate(hello world, 1) = %q, want hello", got)
	}
	if got := mustGet(t, Chars4).Truncate("桜の宿", 1); got != "桜" {
		t.Errorf("chars4.Truncate(桜の宿, 1) = %q, want 桜 (4 bytes cut back to a character)", got)
	}
}

func TestConcurrentCount(t *testing.T) {
	c := mustGet(t, O200kBase)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 200 {
				s := fmt.Sprintf("entry %d of worker %d", j, i%2)
				if c.Count(s) == 0 {
					t.Error("zero count")
				}
			}
		})
	}
	wg.Wait()
}

// lorebookContents is a generated 10,000-entry lorebook's content, with the
// repetition real lorebooks have (shared boilerplate, one card per variant).
func lorebookContents(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Entry %d. The town of Place%d lies on the river; its guard captain, "+
			"Captain%d, distrusts travellers and keeps the gate shut after dark. "+
			"Trade: wool, salt and river fish. Rumour %d says the old mill is haunted.", i%2500, i%2500, i%2500, i%2500)
	}
	return out
}

func BenchmarkCount10kUncached(b *testing.B) {
	texts := lorebookContents(10000)
	c, _ := Get(O200kBase)
	raw := c.(*cached).inner
	b.ResetTimer()
	for b.Loop() {
		for _, s := range texts {
			raw.Count(s)
		}
	}
}

func BenchmarkCount10kCached(b *testing.B) {
	texts := lorebookContents(10000)
	b.ResetTimer()
	for b.Loop() {
		c := newBPE(O200kBase) // a fresh cache every run: cold start, repeats hit
		for _, s := range texts {
			c.Count(s)
		}
	}
}

func BenchmarkCount10kChars4(b *testing.B) {
	texts := lorebookContents(10000)
	c := chars4{}
	for b.Loop() {
		for _, s := range texts {
			c.Count(s)
		}
	}
}

// FuzzTruncate checks Truncate's promises on any text: a prefix, never cut
// inside a UTF-8 sequence, at most n tokens.
func FuzzTruncate(f *testing.F) {
	for _, s := range []string{"hello world", "桜の宿は鴨川のほとり", "emoji 🧙‍♀️ ok", "\xff\xfeab", ""} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if len(s) > 2000 || n < -1 || n > 2000 {
			t.Skip()
		}
		for _, name := range Names() {
			c := mustGet(t, name)
			got := c.Truncate(s, n)
			if !strings.HasPrefix(s, got) {
				t.Fatalf("%s: %q is not a prefix of %q", name, got, s)
			}
			if len(got) > 0 && len(got) < len(s) && !utf8.RuneStart(s[len(got)]) {
				t.Fatalf("%s: cut inside a UTF-8 sequence: %q", name, got)
			}
			if n >= 0 && c.Count(got) > n {
				t.Fatalf("%s: %q has %d tokens > %d", name, got, c.Count(got), n)
			}
		}
	})
}
