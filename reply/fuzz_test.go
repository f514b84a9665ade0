package reply

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lorekit/lore/diag"
	"github.com/lorekit/lore/schema"
)

// bookOf is a book with one entry whose content is content, built without
// files, so fuzzing costs no I/O.
func bookOf(content string) *schema.Lorebook {
	return &schema.Lorebook{Entries: []*schema.Entry{{ID: "e", Content: content, Enabled: true, Section: schema.SectionPostHistory}}}
}

// FuzzCheck compiles arbitrary content as templates and checks an
// arbitrary reply against them: it must never panic, and must say the same
// twice.
func FuzzCheck(f *testing.F) {
	f.Add(statusBar, goodStatus)
	f.Add(castBar, goodCast)
	f.Add(optionBox, "<roleplay_options>\n```\na:b\n```\n</roleplay_options>")
	f.Add(questBox, "<ExposurePrompt>\n[系统提示|初级任务进度|打扫房间(2/3)]\n</ExposurePrompt>")
	f.Add(galgameTS, `[{"speaker": "a", "message": 1, "characters": [{}]}]`)
	f.Add(galgameZod, `[{"speaker": 3}]`)
	f.Add("---\nf:\n  rule: must\n  format: |-\n    <a><b>${x}</b>\n    ...\n    </a>", "<a><b>1</a></b><a>")
	f.Add("---\nf:\n  rule: must\n  format:\n    basic: ${p}\n    p: ${basic}", "x")
	f.Fuzz(func(t *testing.T, content, text string) {
		fs, _ := Compile(bookOf(content))
		r := NewReply("r.txt", text)
		a := Check(r, fs, false)
		b := Check(NewReply("r.txt", text), fs, true)
		c := Check(NewReply("r.txt", text), fs, false)
		if !reflect.DeepEqual(a, c) {
			t.Fatalf("two checks of one reply differ:\n%v\n%v", a, c)
		}
		for _, d := range append(a, b...) {
			if d.Line < 1 || d.Column < 1 {
				t.Fatalf("a finding without a position: %+v", d)
			}
		}
	})
}

// FuzzParseTypes reads arbitrary type: blocks and checks a JSON value
// against what they declare: it must never panic.
func FuzzParseTypes(f *testing.F) {
	f.Add("interface A { a: string; b?: 'x' | 'y'; c: { d: number }[] }", `{"a": "s", "b": "z", "c": [{"d": "1"}]}`)
	f.Add("const A = z.object({ a: z.enum(['x']).catch('x'), b: z.array(z.string().min(2)).max(1) }).strict()", `{"a": 1, "b": ["", ""], "c": null}`)
	f.Add("type A = B | null; type B = Record<string, A>", `{"x": {"y": null}}`)
	f.Add("const A = z.union([z.literal(1), z.lazy(() => A)]).and(z.object({}))", `[1]`)
	f.Fuzz(func(t *testing.T, src, value string) {
		d, err := parseTypes(src, func(int) diag.Pos { return diag.Pos{} })
		if err != nil {
			if err.at < 0 || err.at > len(src) {
				t.Fatalf("error at %d, outside the %d-byte source", err.at, len(src))
			}
			return
		}
		node, perr := schema.ParseBytes("v.json", []byte(value))
		if perr != nil {
			return
		}
		for _, name := range d.order {
			k := &jsonCheck{d: d, out: func(*yaml.Node, diag.Severity, string, diag.Pos, string, ...any) {}}
			k.check(node, d.m[name], "JSON", 0)
		}
	})
}

// FuzzJSONMap: every offset of a .jsonl message's text maps to the column
// of the file where the escaped source of that text starts.
func FuzzJSONMap(f *testing.F) {
	f.Add("你好\n<b>\"x\"</b>\t\\")
	f.Add("\U0001F600 é \u2028")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || len(s) > 1000 {
			return // the check below is quadratic in the text, the map is not
		}
		quoted, _ := json.Marshal(s) // escapes <, >, &, control characters, quotes
		line := `{"mes":` + string(quoted) + `}`
		col0 := utf8.RuneCountInString(`{"mes":"`) + 1
		m := &jsonMap{file: "c.jsonl", src: []byte(line[len(`{"mes":"`):]), line: 1, col0: col0, col: col0}
		prev := 0
		for off := 0; off <= len(s); off++ {
			if off < len(s) && !utf8.RuneStart(s[off]) {
				continue
			}
			p := m.pos(off)
			if p.Col < prev {
				t.Fatalf("offset %d maps to column %d, before the %d of an earlier offset", off, p.Col, prev)
			}
			prev = p.Col
			// The source before that column decodes to the text before off.
			src := string([]rune(line)[col0-1 : p.Col-1])
			var got string
			if err := json.Unmarshal([]byte(`"`+src+`"`), &got); err != nil || got != s[:off] {
				t.Fatalf("offset %d → column %d: the source before it, %q, is %q, want %q (%v)", off, p.Col, src, got, s[:off], err)
			}
		}
	})
}
