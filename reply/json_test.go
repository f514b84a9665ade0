package reply

import (
	"strings"
	"testing"

	"github.com/lorekit/lore/diag"
)

const galgameTS = `---
Galgame:
  rule: 略
  type: |-
    interface Chat {
      speaker: string; // 当前发言者的名字或` + "`旁白`" + `二字
      message: string;
      mood?: number;
      characters: {
        name: string;
        costume: '开衫' | '格纹衫' | '水手服' | '睡衣';
      }[];
    }
  format: |-
    ${以JSON格式输出Chat[]，包含不少于2个Chat，不多于3个Chat}`

const galgameZod = `---
Galgame:
  rule: 略
  type: |-
    const Chat = z.object({
      speaker: z.union([z.literal('旁白'), z.string()]),
      message: z.string().min(2).describe('当前发言者的台词'),
      background: z.enum(['白天', '黄昏']),
      characters: z.array(
        z.object({
          name: z.literal('络络'), // 目前只有络络这一个角色
          expression: z.enum(['微笑', '浅笑']).catch('微笑'),
        }),
      ),
    });
    type Chat = z.infer<typeof Chat>;
  format: |-
    ${以JSON格式输出Chat[]}`

func TestCheckJSON(t *testing.T) {
	ts := loadFormats(t, galgameTS)
	run(t, ts, []struct {
		name  string
		reply string
		want  []string
	}{
		{"clean", `[{"speaker": "旁白", "message": "夜深了。", "characters": []},
 {"speaker": "络络", "message": "晚安。", "mood": 2, "characters": [{"name": "络络", "costume": "睡衣"}]}]`, nil},
		{"in a fence, after prose", "她说：\n```json\n[{\"speaker\": \"a\", \"message\": \"b\", \"characters\": []}, {\"speaker\": \"a\", \"message\": \"b\", \"characters\": []}]\n```", nil},
		{"no JSON: not required", "她笑了。", nil},
		{"a field missing, a type wrong, an enum broken, a field unknown", `[{"speaker": "旁白", "characters": [], "mood": "high"},
 {"speaker": "络络", "message": "晚安", "characters": [{"name": "络络", "costume": "泳装", "hat": true}]}]`,
			[]string{
				`1:2 reply-json: JSON[0] has no field "message" (message: string) @12:13`,
				`1:46 reply-json: JSON[0].mood is "high"; the type says number @13:20`,
				`2:78 reply-json: JSON[1].characters[0].costume is "泳装", not one of "开衫", "格纹衫", "水手服", "睡衣" @16:24`,
			}},
		{"too few items", `[{"speaker": "旁白", "message": "夜深了。", "characters": []}]`,
			[]string{`1:1 reply-limit: the JSON has 1 items; the format asks for 2 to 3 (不少于2个Chat, 不多于3个Chat) @20:31`}},
		{"does not parse", "[{\"speaker\": \"旁白\",\n  \"message\": \"夜深了。\" \"characters\": []}]",
			[]string{`2:21 reply-json: the JSON does not parse: unexpected '"' in an object (want ',' or '}') @20:11`}},
	})
	zod := loadFormats(t, galgameZod)
	run(t, zod, []struct {
		name  string
		reply string
		want  []string
	}{
		{"clean", `[{"speaker": "旁白", "message": "夜深了", "background": "白天", "characters": [{"name": "络络", "expression": "微笑"}]}]`, nil},
		{"unknown fields pass; enum, literal, min and catch", `[{"speaker": 3, "message": "夜", "background": "夜晚", "extra": 1, "characters": [{"name": "千枝子", "expression": "大笑"}]}]`,
			[]string{
				`1:14 reply-json: JSON[0].speaker is 3; the type says "旁白" | string @11:24`,
				`1:28 reply-json: JSON[0].message is "夜"; the schema asks for a text of at least 2 characters @12:24`,
				`1:47 reply-json: JSON[0].background is "夜晚", not one of "白天", "黄昏" @13:27`,
				`1:89 reply-json: JSON[0].characters[0].name is "千枝子"; the type says "络络" @16:25`,
				`1:110 warning reply-json: JSON[0].characters[0].expression is "大笑", not one of "微笑", "浅笑"; the schema's .catch("微笑") puts "微笑" in its place @17:31`,
			}},
	})
}

func TestTypeNotes(t *testing.T) {
	book := loadBook(t, "---\nf:\n  rule: 略\n  type: |-\n    interface A extends B { x: string }\n  format: ${输出A的JSON}")
	fs, notes := Compile(book)
	if len(notes) != 1 || notes[0].Severity != diag.Info || notes[0].Rule != RuleType || notes[0].Line != 10 || notes[0].Column != 23 ||
		!strings.Contains(notes[0].Message, "extends") {
		t.Errorf("notes = %+v", notes)
	}
	// The JSON is still checked to parse.
	if got := findings(fs, `{"x": }`, false); len(got) != 1 || !strings.Contains(got[0], "does not parse") {
		t.Errorf("got %v", got)
	}
}

func TestParseTypes(t *testing.T) {
	nopos := func(int) diag.Pos { return diag.Pos{} }
	for _, tc := range []struct {
		src  string
		want string // the declared names and their types, or the error
	}{
		{"interface A { a: string; b?: number | null; c: 'x' | \"y\"; d: Array<boolean>; e: Record<string, A[]> }", "A=an object"},
		{"type A = { x: 1 | -2 | true }; type B = A[]", "A=an object B=A[]"},
		{"export interface A { readonly [key: string]: string }", "A=an object of string"},
		{"const A = z.object({ a: z.string().optional(), b: z.array(z.number()).max(3) }).strict(); type A = z.infer<typeof A>;", "A=an object"},
		{"const E = z.enum(['a', 'b']); const U = z.union([E, z.null()]);", "E=\"a\" | \"b\" U=E | null"},
		{"const N = z.coerce.number();", "N=any"},
		{"interface A<T> { x: T }", "error: lore does not read generic interfaces or `extends`; write the fields out"},
		{"interface A { f(): void }", "error: f is a method: JSON has no functions"},
		{"function f() {}", "error: lore reads `interface`, `type` and zod `const` declarations here, not \"function\""},
		{"const A = z.tuple([z.string()])", "error: lore does not read z.tuple; use z.array"},
		{"type A = [string, number]", "error: lore does not read tuple types ([A, B]); use A[] or an interface"},
		{"interface A { x: string", "error: { is never closed"},
		{"type A = 'open", "error: a string is never closed"},
		{"type A = 'open\n'", "error: a string is not closed on its line"},
	} {
		d, err := parseTypes(tc.src, nopos)
		var got string
		if err != nil {
			got = "error: " + err.msg
		} else {
			var parts []string
			for _, n := range d.order {
				parts = append(parts, n+"="+d.m[n].describe(d))
			}
			got = strings.Join(parts, " ")
		}
		if got != tc.want {
			t.Errorf("parseTypes(%q) = %s, want %s", tc.src, got, tc.want)
		}
	}
}
