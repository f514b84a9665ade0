package reply

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/schema"
)

func TestReadChat(t *testing.T) {
	fs := loadFormats(t, "---\nf:\n  rule: you must end with it\n  format: |-\n    <b>\n    心情: ${x}\n    </b>")
	chat := `{"user_name":"u","character_name":"c"}
{"name":"c","is_user":false,"mes":"\u4f60\u597d\n<b>\n\u5fc3\u5883: \"\u2192\"\n</b>"}
{"name":"u","is_user":true,"mes":"<b>\nnot a reply\n</b>"}
{"name":"c","is_user":false,"is_system":true,"mes":"a system note"}
{"name":"c","is_user":false,"mes":"\ud83d\ude00 no block"}
`
	rs, ds, err := ReadFile("chat.jsonl", []byte(chat))
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	if len(rs) != 2 || rs[0].Message != 1 || rs[1].Message != 2 {
		t.Fatalf("read %d replies, want the 2 character messages", len(rs))
	}
	var got []string
	for _, r := range rs {
		for _, d := range Check(r, fs, false) {
			got = append(got, d.Pos().String()+" "+d.Message)
		}
	}
	// "心境" is written \u5fc3\u5883 from column 55 of line 2; the end of
	// message 2's text is the closing quote, after an escaped emoji (a
	// surrogate pair: 12 characters of the file, one rune).
	want := []string{
		`chat.jsonl:2:55 message 1: expected "心情:", found "心境:"`,
		`chat.jsonl:5:57 message 2: no <b> block (e1#f): its rule asks for it in every reply`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestReadText(t *testing.T) {
	for _, tc := range []struct {
		data, want string
	}{
		{"a\x00b", "r.txt:1:2: binary data (a NUL byte), not a reply's text"},
		{"ok\nb\xffc", "r.txt:2:2: invalid UTF-8 (byte 0xff): save the reply as UTF-8"},
		{"{\"mes\": 1}\n{\"mes\": \"x\"}\n{", "stdin:3:2: invalid JSON: unexpected end of file (the file looks truncated)"},
	} {
		name := "r.txt"
		if strings.HasPrefix(tc.want, "stdin") {
			name = StdinName // read as a chat by its content
		}
		_, _, err := ReadFile(name, []byte(tc.data))
		if err == nil || err.Error() != tc.want {
			t.Errorf("ReadFile(%q): %v, want %s", tc.data, err, tc.want)
		}
		if _, ok := err.(*schema.ParseError); err != nil && !ok {
			t.Errorf("ReadFile(%q): %T, want a *schema.ParseError", tc.data, err)
		}
	}
	rs, _, err := ReadFile("r.txt", []byte("\xef\xbb\xbf<b>"))
	if err != nil || len(rs) != 1 || rs[0].Text != "<b>" {
		t.Errorf("a byte-order mark is not part of the reply: %v %q", err, rs[0].Text)
	}
	rs, _, err = ReadFile("lines.txt", []byte("{\"a\": 1}\n{\"a\": 2}\n"))
	if err != nil || len(rs) != 1 {
		t.Errorf("a .txt reply of JSON lines is one reply: %v, %d replies", err, len(rs))
	}
	rs, _, err = ReadFile("empty.txt", nil)
	if err != nil || len(rs) != 1 || rs[0].Text != "" {
		t.Errorf("an empty file is an empty reply: %v", err)
	}
}
