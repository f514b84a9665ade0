package diag

import "testing"

// A finding keeps its fingerprint when its line and message change (the entry
// moved, a number in the message changed), and a second finding of the same
// rule on the same entry gets another one.
func TestFingerprintSurvivesMoves(t *testing.T) {
	d := Diagnostic{File: "book.yaml", Line: 10, Column: 3, Rule: "keyword-overlap", Entry: "bar", Message: "a"}
	moved := d
	moved.Line, moved.Message = 42, "b"
	a := Fingerprint(d, "book.yaml", map[string]int{})
	if b := Fingerprint(moved, "book.yaml", map[string]int{}); a != b {
		t.Errorf("moved finding changed fingerprint: %s vs %s", a, b)
	}
	seen := map[string]int{}
	first, second := Fingerprint(d, "book.yaml", seen), Fingerprint(d, "book.yaml", seen)
	if first != a || second == first {
		t.Errorf("ordinal: first %s second %s", first, second)
	}
	other := d
	other.Entry = "sandbar"
	if Fingerprint(other, "book.yaml", map[string]int{}) == a {
		t.Error("another entry must give another fingerprint")
	}
}
