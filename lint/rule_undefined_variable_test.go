package lint

import "testing"

// hasGetvar only skips the regular expression: it must say yes wherever
// getvarRe matches, in any case and after any text.
func TestHasGetvarFindsWhatTheRegexFinds(t *testing.T) {
	for _, s := range []string{
		"", "{", "{{", "{{getvar:", "{{getvar::", "{{GetVar::mood}}", "{{{getvar::x}}",
		"a {{b}} {{GETVAR::hp}}", "{{getvar ::x}}", "{{setvar::x::1}}", "é{{gEtVaR::ß}}",
		"{{getvar\u212a::x}}", "{{getvar::", "text {{ getvar::x}}",
	} {
		if getvarRe.MatchString(s) && !hasGetvar(s) {
			t.Errorf("hasGetvar(%q) = false, but the regexp matches", s)
		}
	}
	for s, want := range map[string]bool{"{{getvar::": true, "{{GETVAR::x": true, "{getvar::x}": false, "{{setvar::": false, "{{getvar:x": false} {
		if got := hasGetvar(s); got != want {
			t.Errorf("hasGetvar(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzHasGetvar(f *testing.F) {
	f.Add("{{GetVar::mood}}")
	f.Fuzz(func(t *testing.T, s string) {
		if getvarRe.MatchString(s) && !hasGetvar(s) {
			t.Fatalf("hasGetvar(%q) = false, but the regexp matches", s)
		}
	})
}
