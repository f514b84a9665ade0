package schema

import (
	"errors"
	"testing"
)

// TestJSONSyntaxErrors pins the position (the offending byte, not the token
// before it) and the wording of every kind of JSON syntax error.
func TestJSONSyntaxErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{ invalid`, `f.json:1:3: invalid JSON: unexpected 'i' where an object key (a quoted string) should be`},
		{`{"a" 1}`, `f.json:1:6: invalid JSON: unexpected '1' after an object key (want ':')`},
		{`{"a": 1 "b": 2}`, `f.json:1:9: invalid JSON: unexpected '"' in an object (want ',' or '}')`},
		{`[1 2]`, `f.json:1:4: invalid JSON: unexpected '2' in an array (want ',' or ']')`},
		{`{"content": "bad \q escape"}`, `f.json:1:19: invalid JSON: bad escape 'q' in a string (valid: \" \\ \/ \b \f \n \r \t \uXXXX)`},
		{"{\"a\":\"b\nc\"}", `f.json:1:8: invalid JSON: control character '\n' in a string (write it as an escape such as \n, or close the string)`},
		{`{"a": tru}`, `f.json:1:10: invalid JSON: unexpected '}' in a literal (JSON has true, false and null, in lower case)`},
		{`{"a": True}`, `f.json:1:7: invalid JSON: unexpected 'T' where a value should start`},
		{`{"a": -}`, `f.json:1:8: invalid JSON: bad number: unexpected '}'`},
		{"{\"entries\": [\n  {\"id\": \"x\",", `f.json:2:14: invalid JSON: unexpected end of file (the file looks truncated)`},
		{`{"a":1} x`, `f.json:1:9: invalid JSON: unexpected content after the end of the JSON value`},
		{`{"a": [1, 2,]}`, `f.json:1:13: invalid JSON: a trailing comma before ']' is not allowed in JSON`},
		{`{"a": 1,}`, `f.json:1:9: invalid JSON: a trailing comma before '}' is not allowed in JSON`},
		{"{\"k\": \"日本\", \"x\" 1}", `f.json:1:17: invalid JSON: unexpected '1' after an object key (want ':')`},
	} {
		_, err := ParseBytes("f.json", []byte(c.in))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: got %v, want a *ParseError", c.in, err)
			continue
		}
		if got := pe.Error(); got != c.want {
			t.Errorf("%q:\n got  %s\n want %s", c.in, got, c.want)
		}
	}
}
