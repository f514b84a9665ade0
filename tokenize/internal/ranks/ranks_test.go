package ranks

import (
	"fmt"
	"testing"
)

// TestBuildParse: a built table gives every token's rank and every rank's
// token back, knows no other token, and keeps a rank without a token empty.
func TestBuildParse(t *testing.T) {
	tokens := make([][]byte, 3000)
	for r := range tokens {
		if r%7 != 3 {
			tokens[r] = fmt.Appendf(nil, "t%x", r*r)
		}
	}
	b, err := Build(tokens)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != len(tokens) {
		t.Fatalf("Len %d, want %d", tab.Len(), len(tokens))
	}
	for r, tok := range tokens {
		if got := tab.Token(r); string(got) != string(tok) {
			t.Fatalf("Token(%d) = %q, want %q", r, got, tok)
		}
		if tok == nil {
			continue
		}
		if got, ok := tab.Rank(string(tok)); !ok || got != uint32(r) {
			t.Fatalf("Rank(%q) = %d, %v, want %d", tok, got, ok, r)
		}
	}
	for _, s := range []string{"", "t", "nope", "t1 "} {
		if r, ok := tab.Rank(s); ok {
			t.Errorf("Rank(%q) = %d, want none", s, r)
		}
	}
	if tab.Token(-1) != nil || tab.Token(len(tokens)) != nil {
		t.Error("a rank out of range has a token")
	}
	if _, err := Build([][]byte{[]byte("a"), []byte("a")}); err == nil {
		t.Error("a token given twice was accepted")
	}
}

// TestParseRejects: what is not a whole table is refused, not read past.
func TestParseRejects(t *testing.T) {
	good, _ := Build([][]byte{[]byte("a"), []byte("bc")})
	for name, b := range map[string][]byte{
		"empty":     nil,
		"magic":     append([]byte("LRK2"), good[4:]...),
		"truncated": good[:len(good)-20],
		"blob":      good[:len(good)-1],
	} {
		if _, err := Parse(b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
