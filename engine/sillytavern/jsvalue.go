package sillytavern

import "github.com/lorekit/lore/formats"

// SillyTavern reads its entry fields with JavaScript's loose rules, which
// formats.STEntry's accessors apply (truthiness, Number(), `== true`); what
// the engine adds here is JavaScript's idea of a space and a word character
// in the texts it scans.

// jsTrim is String.prototype.trim.
func jsTrim(s string) string { return formats.JSTrim(s) }

// hasJSSpace says whether s has a character \s matches.
func hasJSSpace(s string) bool {
	for _, r := range s {
		if formats.JSSpace(r) {
			return true
		}
	}
	return false
}

// wordByte is a byte of JavaScript's \w (the ASCII word characters); every
// byte of a non-ASCII character is outside it, as the UTF-16 code units of
// that character are outside \w.
func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
