package formats

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWriteStringMatchesJSON: the fast path writes exactly what
// encoding/json writes (without HTML escapes), for every kind of string.
func TestWriteStringMatchesJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b", "back\\slash", "tab\tnl\nret\r", "\x01", "é漢字", "\u2028x", "bad\xffutf8", "<&>"} {
		var got, want bytes.Buffer
		writeString(&got, s)
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if got.String()+"\n" != want.String() {
			t.Errorf("%q: %s, want %s", s, got.String(), want.String())
		}
	}
}
